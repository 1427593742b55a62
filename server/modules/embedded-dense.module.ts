import { ContainerModule } from 'inversify';
import type { Embedder } from '../../core/ports/embedder.js';
import type { VectorIndex } from '../../core/ports/vector-index.js';
import { instrumentIndex, type ServiceMetrics } from '../../adapters/prometheus/index.js';
import { ConfigError, setting } from '../config/variables.js';
import { oneOf } from '../config/schemas.js';
import { TOKENS } from '../tokens.js';
import type { ServiceModule } from './module.js';
import { OLLAMA_URL } from './models.module.js';
import { DATABASE_URL, sqliteDatabaseOf } from './records.module.js';

const EMBEDDED_DENSE = setting('EMBEDDED_DENSE', oneOf(['off', 'on'] as const), 'off',
  'on: a dense index in the SQLite database beside the lexical one, fed by in-process hashed embeddings (no model); embedded stack only');

export interface EmbeddedDenseSection {
  /** A second, dense index without a model (EMBEDDED_DENSE=on): hashed embeddings, vectors in SQLite. */
  embeddedDense: boolean;
}

/**
 * Dense retrieval for the embedded stack, which has no embedding model: the hashing embedder (adapters/hashing-embedder)
 * fills the SQLite dense index, and questions are searched in both indexes, the results fused.
 */
export const embeddedDenseModule: ServiceModule<EmbeddedDenseSection> = {
  family: 'embedded-dense',
  variables: [EMBEDDED_DENSE],
  configure(env) {
    const on = env.read(EMBEDDED_DENSE) === 'on';
    // Ollama's embeddings already fill a dense index: two embedders for one index would mix vectors of two spaces.
    if (on && env.isSet(OLLAMA_URL)) throw new ConfigError('EMBEDDED_DENSE', 'cannot be on with OLLAMA_URL, whose embedding model fills the dense index');
    // Vectors kept in SQLite would be one instance's own: with a shared database there is no embedded dense index.
    if (on && env.isSet(DATABASE_URL)) throw new ConfigError('EMBEDDED_DENSE', 'cannot be on with DATABASE_URL: its vectors live in the SQLite database');
    return { embeddedDense: on };
  },
  async bindings(config) {
    if (!config.embeddedDense) return new ContainerModule(() => {});
    const { HashingEmbedder } = await import('../../adapters/hashing-embedder/index.js');
    const { SqliteDenseIndex } = await import('../../adapters/sqlite/index.js');
    return new ContainerModule(({ bind }) => {
      bind<Embedder>(TOKENS.Embedder).toConstantValue(new HashingEmbedder());
      bind<VectorIndex>(TOKENS.DenseIndex).toDynamicValue((ctx) => instrumentIndex(new SqliteDenseIndex(sqliteDatabaseOf(ctx)), ctx.get<ServiceMetrics>(TOKENS.Metrics), 'sqlite'));
    });
  },
  started: (config) => (config.embeddedDense ? { embeddedDense: 'on' } : {}),
};
