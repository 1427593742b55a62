import { ContainerModule } from 'inversify';
import type { Embedder } from '../../core/ports/embedder.js';
import type { Llm } from '../../core/ports/llm.js';
import type { VectorIndex } from '../../core/ports/vector-index.js';
import { createExtractiveAnswerer } from '../../adapters/answer-plugins/index.js';
import type { Config } from '../config.js';
import { TOKENS } from '../tokens.js';
import { lifecycleOf, type Lifecycle } from './lifecycle.js';

/**
 * Answers and vectors: the extractive answerer alone by default; with Ollama, a generative model, an embedding model
 * and a dense index beside the lexical one (Chroma, or vectors in the SQLite database).
 */
export async function modelsModule(config: Config): Promise<ContainerModule> {
  const models = config.models;
  if (models.kind !== 'ollama') {
    return new ContainerModule(({ bind }) => void bind<Llm>(TOKENS.Llm).toConstantValue(createExtractiveAnswerer({ plugins: config.answerPlugins })));
  }
  const { OllamaEmbedder } = await import('../../adapters/ollama/ollama-embedder.js');
  const { OllamaLlm } = await import('../../adapters/ollama/ollama-llm.js');
  const index = config.index;
  const chroma = index.kind === 'chroma' ? await import('../../adapters/chroma/chroma-vector-index.js') : undefined;
  const sqlite = index.kind === 'chroma' ? undefined : await import('../../adapters/sqlite/index.js');
  return new ContainerModule(({ bind }) => {
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
