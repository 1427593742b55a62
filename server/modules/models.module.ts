import { ContainerModule, type ResolutionContext } from 'inversify';
import type { Embedder } from '../../core/ports/embedder.js';
import type { Llm } from '../../core/ports/llm.js';
import { createExtractiveAnswerer } from '../../adapters/answer-plugins/index.js';
import { PooledLlm, type AnswerPool } from '../../adapters/answer-pool/index.js';
import { countDependencyErrors, type ServiceMetrics } from '../../adapters/prometheus/index.js';
import { optional, setting } from '../config/variables.js';
import { httpUrl, oneOf, positiveInt, text } from '../config/schemas.js';
import { LlmWithFallback } from '../../core/rag/llm-fallback.js';
import { TOKENS } from '../tokens.js';
import type { Lifecycle } from './lifecycle.js';
import type { ServiceModule } from './module.js';

export const OLLAMA_URL = optional('OLLAMA_URL', httpUrl, 'Ollama server for generated answers and embeddings (unset: the extractive answerer, no model)', { defaultText: '(extractive)' });
const OLLAMA_CHAT_MODEL = setting('OLLAMA_CHAT_MODEL', text, 'llama3.2:3b', 'Ollama model that writes answers');
const OLLAMA_EMBED_MODEL = setting('OLLAMA_EMBED_MODEL', text, 'nomic-embed-text', 'Ollama model that embeds chunks and questions');
const OLLAMA_TIMEOUT_MS = setting('OLLAMA_TIMEOUT_MS', positiveInt(3_600_000), 120_000, 'Longest wait for one Ollama request');
const ANSWER_FALLBACK = setting('ANSWER_FALLBACK', oneOf(['none', 'extractive'] as const), 'none', 'What answers a question while Ollama does not: none (503, Retry-After) or extractive (the extractive answerer, with a note saying so; readiness then says "degraded")');

export interface ModelsSection {
  models:
    | { kind: 'extractive' }
    | { kind: 'ollama'; url: string; chatModel: string; embedModel: string; timeoutMs: number; fallback: 'none' | 'extractive' };
}

/**
 * Answers and embeddings: the extractive answerer alone by default; with Ollama, a generative model and an embedding
 * model (the vectors family keeps the vectors).
 */
export const modelsModule: ServiceModule<ModelsSection> = {
  family: 'models',
  variables: [OLLAMA_URL, OLLAMA_CHAT_MODEL, OLLAMA_EMBED_MODEL, OLLAMA_TIMEOUT_MS, ANSWER_FALLBACK],
  configure(env): ModelsSection {
    const url = env.read(OLLAMA_URL);
    if (!url) {
      env.forbidWithout([OLLAMA_CHAT_MODEL, OLLAMA_EMBED_MODEL, OLLAMA_TIMEOUT_MS, ANSWER_FALLBACK], OLLAMA_URL);
      return { models: { kind: 'extractive' } };
    }
    return {
      models: {
        kind: 'ollama', url, chatModel: env.read(OLLAMA_CHAT_MODEL), embedModel: env.read(OLLAMA_EMBED_MODEL), timeoutMs: env.read(OLLAMA_TIMEOUT_MS),
        fallback: env.read(ANSWER_FALLBACK),
      },
    };
  },
  async bindings(config) {
    const models = config.models;
    // With the answering family's pool (ANSWER_POOL_THREADS > 0) the extractive answerer runs on its threads.
    const extractive = (ctx: ResolutionContext): Llm => countDependencyErrors(
      config.answering.poolThreads > 0 ? new PooledLlm(ctx.get<AnswerPool>(TOKENS.AnswerPool)) : createExtractiveAnswerer({ plugins: config.answerPlugins }),
      ctx.get<ServiceMetrics>(TOKENS.Metrics),
      'extractive',
    );
    if (models.kind !== 'ollama') return new ContainerModule(({ bind }) => void bind<Llm>(TOKENS.Llm).toDynamicValue(extractive));
    const { OllamaEmbedder } = await import('../../adapters/ollama/ollama-embedder.js');
    const { OllamaLlm } = await import('../../adapters/ollama/ollama-llm.js');
    const embedder = new OllamaEmbedder({ host: models.url, model: models.embedModel, timeoutMs: models.timeoutMs });
    const llm = new OllamaLlm({ host: models.url, model: models.chatModel, timeoutMs: models.timeoutMs });
    return new ContainerModule(({ bind }) => {
      bind<Embedder>(TOKENS.Embedder).toDynamicValue((ctx) => countDependencyErrors(embedder, ctx.get<ServiceMetrics>(TOKENS.Metrics), 'ollama'));
      bind<Llm>(TOKENS.Llm).toDynamicValue((ctx) => {
        const model = countDependencyErrors(llm, ctx.get<ServiceMetrics>(TOKENS.Metrics), 'ollama');
        return models.fallback === 'extractive' ? new LlmWithFallback(model, extractive(ctx)) : model;
      });
      // With the extractive stand-in, questions are answered while Ollama is down (from the words alone): degraded.
      const whenDown = models.fallback === 'extractive' ? 'degraded' : 'unavailable';
      bind<Lifecycle>(TOKENS.Lifecycle).toConstantValue({ name: 'embedding model (Ollama)', probe: () => embedder.check(), whenDown });
      bind<Lifecycle>(TOKENS.Lifecycle).toConstantValue({ name: 'chat model (Ollama)', probe: () => llm.check(), whenDown });
    });
  },
  started: (config) => ({ models: config.models.kind }),
};
