import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { IngestStatus } from '../../core/domain/model.js';

const INGEST_STATES: IngestStatus[] = ['queued', 'processing', 'completed', 'failed'];

/**
 * The service's Prometheus series, in a registry of its own (two services in one process, as in tests, do not share
 * counters). Filled by the HTTP middleware and by the instrumented ports (instrumented-ports.ts); scraped at /metrics.
 */
/** What a worker-thread pool reports at each scrape (watchPool). */
export interface PoolStats {
  threads: number;
  inFlight: number;
  queued: number;
  /** Seconds its threads sat idle with tasks waiting for the request thread to hand them one (when it knows). */
  handOffWaitSeconds?: number;
}

export class ServiceMetrics {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'doc_chat_http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  readonly queueWait = new Histogram({
    name: 'doc_chat_ingest_queue_wait_seconds',
    help: 'Time from an ingest job being created to a worker starting it',
    buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
    registers: [this.registry],
  });

  readonly extractionDuration = new Histogram({
    name: 'doc_chat_extraction_duration_seconds',
    help: 'Text extraction time per document (PDF text layer and OCR), by outcome',
    labelNames: ['outcome'] as const,
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900],
    registers: [this.registry],
  });

  readonly pagesExtracted = new Counter({
    name: 'doc_chat_pages_extracted_total',
    help: 'Pages extracted, by method (text layer, OCR, skipped by the OCR limit)',
    labelNames: ['method'] as const,
    registers: [this.registry],
  });

  readonly searchDuration = new Histogram({
    name: 'doc_chat_index_search_duration_seconds',
    help: 'Index search time, by index kind',
    labelNames: ['index'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  });

  readonly dependencyErrors = new Counter({
    name: 'doc_chat_dependency_errors_total',
    help: 'Calls to a dependency that failed because it did not answer, by dependency',
    labelNames: ['dependency'] as const,
    registers: [this.registry],
  });

  /** How long a query waited for a free connection of its process's pool (PostgreSQL), by pool. */
  readonly databaseConnectionWait = new Histogram({
    name: 'doc_chat_database_connection_wait_seconds',
    help: 'Time a query waited for a free database connection, by pool (records, search, reads)',
    labelNames: ['pool'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  });

  /** Questions refused before any work: `per_user_limit` (429) or `queue_full` (503). */
  readonly questionRefusals = new Counter({
    name: 'doc_chat_question_refusals_total',
    help: 'Questions refused because the user had too many in progress (per_user_limit) or the answer queue was full (queue_full)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  /** Worker-thread pools, read at each scrape (watchPool). */
  private readonly pools = new Map<string, () => PoolStats>();

  /** Database connection pools, read at each scrape (watchDatabasePool). */
  private readonly databasePools = new Map<string, () => { total: number; idle: number; waiting: number }>();

  /** `countJobs` is asked at each scrape: the job counts live in the database that every instance shares. */
  constructor(countJobs: () => Promise<Partial<Record<IngestStatus, number>>>, options: { processMetrics?: boolean } = {}) {
    new Gauge({
      name: 'doc_chat_ingest_jobs',
      help: 'Ingest jobs by state',
      labelNames: ['state'] as const,
      registers: [this.registry],
      async collect() {
        const counts = await countJobs();
        for (const state of INGEST_STATES) this.set({ state }, counts[state] ?? 0);
      },
    });
    const pools = this.pools;
    const poolGauge = (name: string, help: string, field: 'threads' | 'inFlight' | 'queued') => new Gauge({
      name, help, labelNames: ['pool'] as const, registers: [this.registry],
      collect() {
        for (const [pool, stats] of pools) this.set({ pool }, stats()[field]);
      },
    });
    poolGauge('doc_chat_pool_threads', 'Worker threads of each pool', 'threads');
    poolGauge('doc_chat_pool_in_flight', 'Tasks running on a worker thread, per pool', 'inFlight');
    poolGauge('doc_chat_pool_queue_length', 'Tasks waiting for a worker thread, per pool', 'queued');
    new Gauge({
      name: 'doc_chat_pool_handoff_wait_seconds',
      help: 'Seconds (since start) worker threads sat idle with tasks waiting until the request thread handed them one, per pool',
      labelNames: ['pool'] as const,
      registers: [this.registry],
      collect() {
        for (const [pool, stats] of pools) {
          const waited = stats().handOffWaitSeconds;
          if (waited !== undefined) this.set({ pool }, waited);
        }
      },
    });
    const databasePools = this.databasePools;
    new Gauge({
      name: 'doc_chat_database_connections',
      help: 'Database connections open (total) and idle, and queries waiting for one (waiting), by pool',
      labelNames: ['pool', 'state'] as const,
      registers: [this.registry],
      collect() {
        for (const [pool, stats] of databasePools) {
          for (const [state, value] of Object.entries(stats())) this.set({ pool, state }, value);
        }
      },
    });
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'doc_chat_' });
  }

  /** Reports a pool's threads, running and waiting tasks under `pool` at each scrape. */
  watchPool(pool: string, stats: () => PoolStats): void {
    this.pools.set(pool, stats);
  }

  /** Reports a database pool's open, idle and waiting counts under `pool` at each scrape. */
  watchDatabasePool(pool: string, stats: () => { total: number; idle: number; waiting: number }): void {
    this.databasePools.set(pool, stats);
  }

  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
