import { OllamaEmbedder } from '../../adapters/ollama/ollama-embedder.js';
import { FakeOllamaServer } from '../support/fake-ollama-server.js';
import { embedderContract } from './embedder.contract.js';

embedderContract('OllamaEmbedder (nomic-embed-text, task prefixes) against a fake Ollama server', async () => {
  const server = await FakeOllamaServer.start();
  return { embedder: new OllamaEmbedder({ host: server.url, model: 'nomic-embed-text', timeoutMs: 5_000 }), close: () => server.close() };
});

embedderContract('OllamaEmbedder (all-minilm, batches of 8) against a fake Ollama server', async () => {
  const server = await FakeOllamaServer.start();
  return {
    embedder: new OllamaEmbedder({ host: server.url, model: 'all-minilm', timeoutMs: 5_000, batchSize: 8 }),
    close: () => server.close(),
  };
});
