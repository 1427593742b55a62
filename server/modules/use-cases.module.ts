import { ContainerModule } from 'inversify';
import { AcceptedTypes, createDocChat, type DocChat } from '../../core/index.js';
import type { GroundedAnswerer } from '../../core/ports/grounded-answerer.js';
import type { HitReranker } from '../../core/ports/hit-reranker.js';
import type { Embedder } from '../../core/ports/embedder.js';
import type { VectorIndex } from '../../core/ports/vector-index.js';
import { answerPlugins } from '../../adapters/answer-plugins/index.js';
import { documentKindClassifier } from '../../adapters/document-kinds/index.js';
import { TOKENS } from '../tokens.js';
import type { ServiceModule } from './module.js';

/**
 * The core's use cases on the ports the families bound (already wrapped for metrics by each family). The dense index
 * and the embedder are optional: a family that provides vectors binds both.
 */
export const useCasesModule: ServiceModule<Record<never, never>> = {
  family: 'core',
  variables: [],
  configure: () => ({}),
  bindings: (config) =>
    new ContainerModule(({ bind }) => {
      bind<DocChat>(TOKENS.DocChat).toDynamicValue((ctx) => {
        const dense = ctx.get<VectorIndex>(TOKENS.DenseIndex, { optional: true });
        return createDocChat({
          sessions: ctx.get(TOKENS.SessionRepo),
          chats: ctx.get(TOKENS.ChatRepo),
          jobs: ctx.get(TOKENS.IngestJobRepo),
          blobs: ctx.get(TOKENS.BlobStore),
          uploads: ctx.get(TOKENS.UploadRepo),
          eraser: ctx.get(TOKENS.SessionEraser),
          records: ctx.get(TOKENS.RecordSearch),
          uploadLimits: config.uploadLimits,
          acceptedTypes: new AcceptedTypes(config.acceptedTypes),
          mailAttachments: config.mailAttachments,
          indexes: dense ? [ctx.get<VectorIndex>(TOKENS.LexicalIndex), dense] : [ctx.get<VectorIndex>(TOKENS.LexicalIndex)],
          reader: ctx.get(TOKENS.DocumentReader),
          renderer: ctx.get(TOKENS.PageRenderer, { optional: true }),
          llm: ctx.get(TOKENS.Llm),
          embedder: ctx.get<Embedder>(TOKENS.Embedder, { optional: true }),
          queue: ctx.get(TOKENS.JobQueue),
          ids: ctx.get(TOKENS.Ids),
          clock: ctx.get(TOKENS.Clock),
          logger: ctx.get(TOKENS.Logger),
          reranker: ctx.get<HitReranker>(TOKENS.Reranker, { optional: true }),
          grounded: ctx.get<GroundedAnswerer>(TOKENS.GroundedAnswerer, { optional: true }),
          planners: answerPlugins(config.answerPlugins).map((plugin) => plugin.planner),
          classifier: documentKindClassifier,
          space: ctx.get(TOKENS.StorageSpace),
        });
      });
    }),
};
