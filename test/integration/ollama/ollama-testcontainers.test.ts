import { expect } from 'chai';
import { Ollama } from 'ollama';
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { OllamaEmbedder } from '../../../adapters/ollama/ollama-embedder.js';
import { OllamaLlm } from '../../../adapters/ollama/ollama-llm.js';
import { embedderContract } from '../../contracts/embedder.contract.js';
import { llmContract } from '../../contracts/llm.contract.js';
import { OLLAMA_IMAGE } from '../../support/container-images.js';
import { skipWithoutContainerRuntime } from '../../support/container-runtime.js';

/**
 * The Embedder and Llm contracts against a real Ollama server in a container, with the smallest models that make
 * sense (pulled into the container on first use: ~50 MB and ~400 MB). Needs a container runtime (Docker/Podman) and
 * network access to the Ollama registry; without a runtime every test here is skipped.
 * A 0.5B chat model cannot be trusted with judgement calls, so the Llm contract runs in its tolerant mode.
 */
const IMAGE = process.env.TEST_OLLAMA_IMAGE ?? OLLAMA_IMAGE;
const EMBED_MODEL = process.env.TEST_OLLAMA_EMBED_MODEL ?? 'all-minilm';
const CHAT_MODEL = process.env.TEST_OLLAMA_CHAT_MODEL ?? 'qwen2.5:0.5b';
const PORT = 11434;

describe('Ollama adapters against Ollama in a container (Testcontainers)', function () {
  this.timeout(20 * 60_000);
  let container: StartedTestContainer | undefined;
  let host = '';

  before(async function () {
    await skipWithoutContainerRuntime(this, 'Ollama');
    container = await new GenericContainer(IMAGE)
      .withExposedPorts(PORT)
      .withWaitStrategy(Wait.forHttp('/api/version', PORT))
      .start();
    host = `http://${container.getHost()}:${container.getMappedPort(PORT)}`;
    const client = new Ollama({ host });
    for (const model of [EMBED_MODEL, CHAT_MODEL]) {
      const result = await client.pull({ model, stream: false });
      expect(result.status).to.equal('success');
    }
  });

  after(async function () {
    await container?.stop();
  });

  it('is ready once the models are pulled', async function () {
    await new OllamaEmbedder({ host, model: EMBED_MODEL }).check();
    await new OllamaLlm({ host, model: CHAT_MODEL }).check();
  });

  embedderContract(
    `OllamaEmbedder (${EMBED_MODEL}) against real Ollama`,
    () => ({ embedder: new OllamaEmbedder({ host, model: EMBED_MODEL, timeoutMs: 120_000 }) }),
    // Batched and single inference may differ in the last digits.
    { tolerance: 1e-3, timeoutMs: 5 * 60_000 },
  );

  llmContract(
    `OllamaLlm (${CHAT_MODEL}) against real Ollama`,
    () => ({ llm: new OllamaLlm({ host, model: CHAT_MODEL, timeoutMs: 300_000, temperature: 0, minNumCtx: 2048, maxNumCtx: 4096 }) }),
    { tolerant: true, rewrites: true, timeoutMs: 10 * 60_000 },
  );
});
