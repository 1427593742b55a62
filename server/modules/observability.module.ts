import { ContainerModule } from 'inversify';
import type { IngestJobRepo } from '../../core/ports/ingest-job-repo.js';
import { ServiceMetrics } from '../../adapters/prometheus/service-metrics.js';
import { ConfigError, optional } from '../config/variables.js';
import { minLength, portNumber } from '../config/schemas.js';
import { TOKENS } from '../tokens.js';
import type { ServiceModule } from './module.js';
import { PORT } from './service.module.js';

const METRICS_PORT = optional('METRICS_PORT', portNumber, 'Serve GET /metrics on this port of its own (the only way to scrape a worker)', { defaultText: '(on PORT)' });
const METRICS_TOKEN = optional('METRICS_TOKEN', minLength(16), 'Bearer token GET /metrics requires, at least 16 characters', { defaultText: '(public)', secret: true });

export interface ObservabilitySection {
  /**
   * GET /metrics: on the API port, or on a port of its own (METRICS_PORT; the only way to scrape a worker), public
   * unless METRICS_TOKEN is set.
   */
  metrics: { port?: number; token?: string };
}

/**
 * This process's Prometheus series. The counters and timings are the process's own (Prometheus sums instances);
 * jobs by state are counted at each scrape in the records database, which every instance shares. Each family wraps
 * its own adapters to count their outages under its dependency name.
 */
export const observabilityModule: ServiceModule<ObservabilitySection> = {
  family: 'metrics',
  variables: [METRICS_PORT, METRICS_TOKEN],
  configure(env): ObservabilitySection {
    const port = env.read(METRICS_PORT);
    if (port !== undefined && port !== 0 && port === env.read(PORT)) {
      throw new ConfigError('METRICS_PORT', 'must differ from PORT; leave it unset to serve /metrics on the API port');
    }
    return { metrics: { port, token: env.read(METRICS_TOKEN) } };
  },
  bindings: () =>
    new ContainerModule(({ bind }) => {
      bind<ServiceMetrics>(TOKENS.Metrics).toDynamicValue((ctx) => {
        const jobs = ctx.get<IngestJobRepo>(TOKENS.IngestJobRepo);
        return new ServiceMetrics(() => jobs.countByStatus());
      });
    }),
};
