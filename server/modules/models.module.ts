import { ContainerModule } from 'inversify';
import type { Embedder } from '../../core/ports/embedder.js';
import type { Llm } from '../../core/ports/llm.js';
import type { VectorIndex } from '../../core/ports/vector-index.js';
import { ExtractiveAnswerer } from '../../adapters/extractive/extractive-answerer.js';
import type { Config } from '../config.js';
import { TOKENS } from '../tokens.js';
import { lifecycleOf, type Lifecycle } from './lifecycle.js';
import { AnswerPool, PooledLlm, PooledReranker } from '../../adapters/answer-pool/index.js';
import type { HitReranker } from '../../core/ports/hit-reranker.js';
import type { ServiceMetrics } from '../../adapters/prometheus/service-metrics.js';

type ModuleOptions = Parameters<ConstructorParameters<typeof ContainerModule>[0]>[0];

/**
 * The answer pool's bindings: the pool (its queue refusals counted, its load in /metrics), the re-ranker on it, and
 * its shutdown. With a generative model only the re-ranking runs there (the model's own server does the answering).
 */
function answerPoolModule(config: Config): (options: ModuleOptions) => void {
  return ({ bind }) => {
    bind<AnswerPool>(TOKENS.AnswerPool).toDynamicValue((ctx) => {
      const metrics = ctx.get<ServiceMetrics>(TOKENS.Metrics);
      const pool = new AnswerPool({
        threads: config.answering.poolThreads,
        maxQueued: config.answering.queueLimit,
        onQueueFull: () => metrics.questionRefusals.inc({ reason: 'queue_full' }),
      });
      metrics.watchPool('answer', () => pool.stats());
      return pool;
    });
    bind<HitReranker>(TOKENS.Reranker).toDynamicValue((ctx) => new PooledReranker(ctx.get<AnswerPool>(TOKENS.AnswerPool)));
    bind<Lifecycle>(TOKENS.Lifecycle).toDynamicValue((ctx) => lifecycleOf('answer pool', ctx.get<AnswerPool>(TOKENS.AnswerPool)));
  };
}

/**
 * Answers and vectors: the extractive answerer alone by default; with Ollama, a generative model, an embedding model
 * and a dense index beside the lexical one (Chroma, or vectors in the SQLite database).
 */
export async function modelsModule(config: Config): Promise<ContainerModule> {
  const models = config.models;
  const pool = config.answering.poolThreads > 0 ? answerPoolModule(config) : undefined;
  if (models.kind !== 'ollama') {
    return new ContainerModule((options) => {
      pool?.(options);
      // Pooled, the extractive answerer runs on the pool's threads (built there once per thread).
      if (pool) options.bind<Llm>(TOKENS.Llm).toDynamicValue((ctx) => new PooledLlm(ctx.get<AnswerPool>(TOKENS.AnswerPool)));
      else options.bind<Llm>(TOKENS.Llm).toConstantValue(new ExtractiveAnswerer());
    });
  }
  const { OllamaEmbedder } = await import('../../adapters/ollama/ollama-embedder.js');
  const { OllamaLlm } = await import('../../adapters/ollama/ollama-llm.js');
  const index = config.index;
  const chroma = index.kind === 'chroma' ? await import('../../adapters/chroma/chroma-vector-index.js') : undefined;
  const sqlite = index.kind === 'chroma' ? undefined : await import('../../adapters/sqlite/index.js');
  return new ContainerModule((options) => {
    pool?.(options);
    const { bind } = options;
    const embedder = new OllamaEmbedder({ host: models.url, model: models.embedModel, timeoutMs: models.timeoutMs });
    const llm = new OllamaLlm({ host: models.url, model: models.chatModel, timeoutMs: models.timeoutMs });
    bind<Embedder>(TOKENS.Embedder).toConstantValue(embedder);
    bind<Llm>(TOKENS.Llm).toConstantValue(llm);
    bind<Lifecycle>(TOKENS.Lifecycle).toConstantValue(lifecycleOf('embedding model (Ollama)', embedder));
    bind<Lifecycle>(TOKENS.Lifecycle).toConstantValue(lifecycleOf('chat model (Ollama)', llm));
    if (index.kind === 'chroma') {
      bind<VectorIndex>(TOKENS.DenseIndex).toDynamicValue(() => new chroma!.ChromaVectorIndex({ url: index.url, collection: index.collection }));
      bind<Lifecycle>(TOKENS.Lifecycle).toDynamicValue((ctx) => lifecycleOf('vector index (Chroma)', ctx.get<{ init(): Promise<void>; check(): Promise<void> }>(TOKENS.DenseIndex)));
    } else {
      bind<VectorIndex>(TOKENS.DenseIndex).toDynamicValue((ctx) => new sqlite!.SqliteDenseIndex(ctx.get(TOKENS.SqliteDatabase)));
    }
  });
}
