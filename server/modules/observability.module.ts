import { ContainerModule } from 'inversify';
import type { IngestJobRepo } from '../../core/ports/ingest-job-repo.js';
import { ServiceMetrics } from '../../adapters/prometheus/service-metrics.js';
import type { Config } from '../config.js';
import { TOKENS } from '../tokens.js';

/**
 * This process's Prometheus series. The counters and timings are the process's own (Prometheus sums instances);
 * jobs by state are counted at each scrape in the records database, which every instance shares.
 */
export function observabilityModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<ServiceMetrics>(TOKENS.Metrics).toDynamicValue((ctx) => {
      const jobs = ctx.get<IngestJobRepo>(TOKENS.IngestJobRepo);
      return new ServiceMetrics(() => jobs.countByStatus());
    });
  });
}

/** The names dependency errors are counted under (doc_chat_dependency_errors_total{dependency}), by what is configured. */
export function dependencyNames(config: Config) {
  return {
    records: config.records.kind,
    denseIndex: config.index.kind === 'chroma' ? 'chroma' : 'sqlite',
    models: config.models.kind,
    blobs: config.blobs.kind === 'minio' ? 'minio' : 'local',
  };
}
