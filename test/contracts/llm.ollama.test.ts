import { OllamaLlm } from '../../adapters/ollama/ollama-llm.js';
import { FakeOllamaServer } from '../support/fake-ollama-server.js';
import { llmContract } from './llm.contract.js';

// A generative model behind Ollama's REST API: the fake server's default "model" replies like an obedient grounded
// model to the prompt OllamaLlm sends (it quotes the best-matching fenced sentence with its ref, or the not-found
// sentence), so the whole path — prompt, HTTP, reply parsing — is exercised.
llmContract('OllamaLlm against a fake Ollama server', async () => {
  const server = await FakeOllamaServer.start();
  return { llm: new OllamaLlm({ host: server.url, model: 'llama3.2', timeoutMs: 5_000 }), close: () => server.close() };
}, { rewrites: true });

// The same model answering in its own words: no citation markers, so the refs come from word overlap.
llmContract('OllamaLlm against a fake Ollama server (uncited replies)', async () => {
  const server = await FakeOllamaServer.start();
  const cited = server.chatScript;
  server.onChat(async (request) => (await cited(request)).replace(/\s*\[[^\]]*\]\s*$/, ''));
  return { llm: new OllamaLlm({ host: server.url, model: 'llama3.2', timeoutMs: 5_000 }), close: () => server.close() };
}, { rewrites: true });
