import { Container, ContainerModule } from 'inversify';
import { createDocChat, type DocChat } from '../core/index.js';
import type { Clock, IdGenerator } from '../core/ports/clock-and-ids.js';
import type { BlobStore } from '../core/ports/blob-store.js';
import type { DocumentReader } from '../core/ports/document-reader.js';
import type { Embedder } from '../core/ports/embedder.js';
import type { Llm } from '../core/ports/llm.js';
import type { DependencyProbe } from '../core/ports/health-check.js';
import type { Logger } from '../core/ports/logger.js';
import type { VectorIndex } from '../core/ports/vector-index.js';
import { PinoLogger } from '../adapters/system/pino-logger.js';
import { RandomUuidGenerator, SystemClock } from '../adapters/system/system.js';
import type { Config } from './config.js';
import { filesModule } from './modules/files.module.js';
import { identityModule } from './modules/identity.module.js';
import { ingestionModule } from './modules/ingestion.module.js';
import type { Lifecycle } from './modules/lifecycle.js';
import { modelsModule } from './modules/models.module.js';
import { dependencyNames, observabilityModule } from './modules/observability.module.js';
import { countDependencyErrors, instrumentIndex, instrumentReader, type ServiceMetrics } from '../adapters/prometheus/index.js';
import { recordsModule } from './modules/records.module.js';
import { TOKENS } from './tokens.js';

export { TOKENS };

/**
 * The composition root: one container module per family (records, files, models, identity, ingestion), each binding
 * the adapters the configuration picks and a Lifecycle for each one that starts, stops or can be probed. A new
 * backend is a module and its configuration, not a branch here. Core classes carry no decorators; everything is built
 * by factories, and SDK-backed adapters are imported only when configured (tests load the sources as ES modules for
 * this: see test/unit/server/module-identity.test.ts).
 */
export async function buildContainer(config: Config, options: { logger?: Logger } = {}): Promise<Container> {
  const c = new Container({ defaultScope: 'Singleton' });
  // Start-up order: records first (everything writes there), then files, models, identity, ingestion last.
  c.load(
    basics(config, options.logger),
    await recordsModule(config),
    await filesModule(config),
    await modelsModule(config),
    await identityModule(config),
    await ingestionModule(config),
    observabilityModule(),
    useCases(config),
  );
  return c;
}

function basics(config: Config, logger: Logger | undefined): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<Config>(TOKENS.Config).toConstantValue(config);
    bind<Logger>(TOKENS.Logger).toConstantValue(logger ?? new PinoLogger({ level: config.logLevel }));
    bind<Clock>(TOKENS.Clock).toConstantValue(new SystemClock());
    bind<IdGenerator>(TOKENS.Ids).toConstantValue(new RandomUuidGenerator());
  });
}

function useCases(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<DocChat>(TOKENS.DocChat).toDynamicValue((ctx) => {
      // The adapters the use cases get are wrapped to feed the metrics; the core never sees prom-client.
      const metrics = ctx.get<ServiceMetrics>(TOKENS.Metrics);
      const names = dependencyNames(config);
      const counted = <T extends object>(adapter: T, dependency: string): T => countDependencyErrors(adapter, metrics, dependency);
      const dense = ctx.get<VectorIndex>(TOKENS.DenseIndex, { optional: true });
      const embedder = ctx.get<Embedder>(TOKENS.Embedder, { optional: true });
      return createDocChat({
        sessions: ctx.get(TOKENS.SessionRepo),
        chats: ctx.get(TOKENS.ChatRepo),
        jobs: ctx.get(TOKENS.IngestJobRepo),
        blobs: counted(ctx.get<BlobStore>(TOKENS.BlobStore), names.blobs),
        uploads: ctx.get(TOKENS.UploadRepo),
        eraser: ctx.get(TOKENS.SessionEraser),
        uploadLimits: config.uploadLimits,
        indexes: indexesOf(
          instrumentIndex(ctx.get<VectorIndex>(TOKENS.LexicalIndex), metrics, names.records),
          dense && instrumentIndex(dense, metrics, names.denseIndex),
        ),
        reader: instrumentReader(ctx.get<DocumentReader>(TOKENS.DocumentReader), metrics),
        renderer: ctx.get(TOKENS.PageRenderer),
        llm: counted(ctx.get<Llm>(TOKENS.Llm), names.models),
        embedder: embedder && counted(embedder, names.models),
        queue: ctx.get(TOKENS.JobQueue),
        ids: ctx.get(TOKENS.Ids),
        clock: ctx.get(TOKENS.Clock),
        logger: ctx.get(TOKENS.Logger),
      });
    });
  });
}

function indexesOf(lexical: VectorIndex, dense: VectorIndex | undefined): VectorIndex[] {
  return dense ? [lexical, dense] : [lexical];
}

/** Every registered Lifecycle, in start-up order. */
export function lifecyclesOf(container: Container): Lifecycle[] {
  return container.isBound(TOKENS.Lifecycle) ? container.getAll<Lifecycle>(TOKENS.Lifecycle) : [];
}

/** Readiness: every lifecycle that can be probed, under its name. */
export function readinessProbes(container: Container): DependencyProbe[] {
  return lifecyclesOf(container)
    .filter((lifecycle) => lifecycle.probe)
    .map((lifecycle) => ({ name: lifecycle.name, check: () => lifecycle.probe!() }));
}
