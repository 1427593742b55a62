import { ContainerModule } from 'inversify';
import * as v from 'valibot';
import type { VectorIndex } from '../../core/ports/vector-index.js';
import { instrumentIndex, type ServiceMetrics } from '../../adapters/prometheus/index.js';
import { ConfigError, optional, setting } from '../config/variables.js';
import { httpUrl } from '../config/schemas.js';
import { TOKENS } from '../tokens.js';
import type { Lifecycle } from './lifecycle.js';
import type { ServiceModule } from './module.js';
import { OLLAMA_URL } from './models.module.js';
import { DATABASE_URL, sqliteDatabaseOf } from './records.module.js';

const CHROMA_URL = optional('CHROMA_URL', httpUrl, 'Chroma server for the embeddings (unset: vectors in SQLite); needs OLLAMA_URL', { defaultText: '(SQLite)' });
const CHROMA_COLLECTION = setting(
  'CHROMA_COLLECTION',
  v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]$/, 'must be 3-63 characters of letters, digits, . _ -')),
  'doc_chat_chunks',
  'Chroma collection of the chunks\' vectors',
);

export interface VectorsSection {
  /** Where the embedding model's vectors go: Chroma, or a table beside the records in SQLite. */
  index: { kind: 'sqlite' } | { kind: 'chroma'; url: string; collection: string };
}

/** The dense index beside the lexical one, when an embedding model (Ollama) is configured: Chroma or SQLite. */
export const vectorsModule: ServiceModule<VectorsSection> = {
  family: 'vectors',
  variables: [CHROMA_URL, CHROMA_COLLECTION],
  configure(env): VectorsSection {
    const url = env.read(CHROMA_URL);
    if (!url) {
      env.forbidWithout([CHROMA_COLLECTION], CHROMA_URL);
      // Vectors kept in SQLite would be one instance's own: with a shared database they belong in Chroma.
      if (env.isSet(DATABASE_URL) && env.isSet(OLLAMA_URL)) {
        throw new ConfigError('CHROMA_URL', 'must be set with DATABASE_URL and OLLAMA_URL: vectors are kept in Chroma when records are in PostgreSQL');
      }
      return { index: { kind: 'sqlite' } };
    }
    // Chroma is given vectors, never computes them: without an embedding model it would hold nothing useful.
    if (!env.isSet(OLLAMA_URL)) throw new ConfigError('CHROMA_URL', 'needs OLLAMA_URL, which provides the embeddings Chroma stores');
    return { index: { kind: 'chroma', url, collection: env.read(CHROMA_COLLECTION) } };
  },
  async bindings(config) {
    // No embedding model, no vectors: the lexical index alone.
    if (config.models.kind !== 'ollama') return new ContainerModule(() => {});
    const index = config.index;
    if (index.kind === 'chroma') {
      const { ChromaVectorIndex } = await import('../../adapters/chroma/chroma-vector-index.js');
      const chroma = new ChromaVectorIndex({ url: index.url, collection: index.collection });
      return new ContainerModule(({ bind }) => {
        bind<VectorIndex>(TOKENS.DenseIndex).toDynamicValue((ctx) => instrumentIndex(chroma, ctx.get<ServiceMetrics>(TOKENS.Metrics), 'chroma'));
        // Questions are answered from the lexical index while Chroma is down (core/use-cases/retrieve-and-answer.ts).
        bind<Lifecycle>(TOKENS.Lifecycle).toConstantValue({ name: 'vector index (Chroma)', init: () => chroma.init(), probe: () => chroma.check(), whenDown: 'degraded' });
      });
    }
    const { SqliteDenseIndex } = await import('../../adapters/sqlite/index.js');
    return new ContainerModule(({ bind }) => {
      bind<VectorIndex>(TOKENS.DenseIndex).toDynamicValue((ctx) => instrumentIndex(new SqliteDenseIndex(sqliteDatabaseOf(ctx)), ctx.get<ServiceMetrics>(TOKENS.Metrics), 'sqlite'));
    });
  },
  started: (config) => ({ index: config.index.kind }),
};
