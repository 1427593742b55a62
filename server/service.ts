import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { Container } from 'inversify';
import { DEFAULT_INGEST_RETRY, type DocChat } from '../core/index.js';
import type { IdentityVerifier } from '../core/ports/identity-verifier.js';
import type { Logger } from '../core/ports/logger.js';
import { httpServerOptions, limitClients } from './http/client-limits.js';
import { createHttpApp } from './http/app.js';
import { webAppDir } from './http/web-app.js';
import { errorMiddleware } from './http/errors.js';
import { metricsRouter } from './http/metrics.js';
import type { ServiceMetrics } from '../adapters/prometheus/service-metrics.js';
import Koa from 'koa';
import type { Config } from './config.js';
import { buildContainer, lifecyclesOf, readinessProbes, TOKENS } from './container.js';
import type { Lifecycle, QueueRunner } from './modules/lifecycle.js';
import type { HttpPart } from './modules/module.js';
import { MODULES } from './modules/index.js';

export interface RunningService {
  /** Where the API answers; '' for a worker (ROLE=worker), which does not listen. */
  url: string;
  /** Where GET /metrics answers when it has a port of its own (METRICS_PORT); else it is under `url`. */
  metricsUrl?: string;
  server: Server | undefined;
  container: Container;
  docChat: DocChat;
  /** Resolves when no ingestion is waiting or running. */
  whenIngestionIdle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the service from a configuration, prepares external dependencies (bucket, collection), resumes ingest jobs
 * a previous run left unfinished, and listens. Used by server/main.ts, the end-to-end tests and the benchmarks.
 */
export async function startService(config: Config, options: { logger?: Logger } = {}): Promise<RunningService> {
  const container = await buildContainer(config, options);
  const logger = container.get<Logger>(TOKENS.Logger);
  const closeables: (() => Promise<void>)[] = [];

  const lifecycles = lifecyclesOf(container);
  const started: Lifecycle[] = [];
  let server: Server | undefined;
  let metricsUrl: string | undefined;
  try {
    for (const lifecycle of lifecycles) {
      await lifecycle.init?.();
      started.push(lifecycle);
    }
    // A worker runs ingest jobs only: no HTTP but, with METRICS_PORT, its metrics.
    if (config.role !== 'worker') server = await listen(container, config, logger);
    if (config.metrics.port !== undefined) {
      const metricsServer = await listenForMetrics(container, config, logger);
      metricsUrl = `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}`;
      closeables.push(() => new Promise<void>((resolve) => metricsServer.close(() => resolve())));
    }
  } catch (error) {
    // What did start is stopped again, so a failed start leaves no connection, process or lock behind.
    server?.close();
    for (const lifecycle of started.reverse()) await lifecycle.close?.().catch(() => {});
    throw error;
  }
  const port = server ? (server.address() as AddressInfo).port : undefined;

  const queue = container.get<QueueRunner>(TOKENS.QueueRunner);
  const { resumeIngestion } = container.get<DocChat>(TOKENS.DocChat);
  await resumeIngestion.execute();
  // Jobs nobody runs any more (a lost `failed` write, a lost enqueue) are taken up again once their lease expires.
  const { leaseMs } = DEFAULT_INGEST_RETRY;
  const leaseCheck = setInterval(() => {
    resumeIngestion.execute({ staleAfterMs: leaseMs }).catch((error) => logger.warn('could not check ingest leases', { error: String(error) }));
  }, leaseMs / 2);
  leaseCheck.unref();

  // Uploads never ingested go once their URL has expired (SweepUploads): at start, then every interval.
  const docChat = container.get<DocChat>(TOKENS.DocChat);
  let sweeping: Promise<void> | undefined;
  const sweep = () => {
    sweeping ??= docChat.sweepUploads.execute().then(
      () => undefined,
      (error: unknown) => logger.warn('upload sweep failed; it runs again at the next interval', { error: String(error) }),
    ).finally(() => (sweeping = undefined));
  };
  sweep();
  const sweepTimer = setInterval(sweep, config.uploadSweepIntervalMs).unref();
  closeables.push(async () => {
    clearInterval(sweepTimer);
    await sweeping;
  });

  closeables.push(
    async () => clearInterval(leaseCheck),
    () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    // In reverse start-up order: the queue stops its jobs before extraction and the database go.
    ...[...lifecycles].reverse().flatMap((lifecycle) => (lifecycle.close ? [() => lifecycle.close!()] : [])),
  );

  let closing: Promise<void> | undefined;
  return {
    url: port === undefined ? '' : `http://127.0.0.1:${port}`,
    metricsUrl,
    server,
    container,
    docChat: container.get<DocChat>(TOKENS.DocChat),
    whenIngestionIdle: () => queue.whenIdle(),
    close: () => {
      server?.closeAllConnections?.();
      closing ??= (async () => {
        for (const close of closeables) {
          await close().catch((error) => logger.warn('error while shutting down', { error: String(error) }));
        }
      })();
      return closing;
    },
  };
}

/** GET /metrics alone on METRICS_PORT (same host): how a worker, which has no API, is scraped. */
async function listenForMetrics(container: Container, config: Config, logger: Logger): Promise<Server> {
  const app = new Koa();
  // The API's error handling: a request id on every answer, a failed scrape answered and logged as on the API port.
  app.use(errorMiddleware(logger));
  app.use(metricsRouter(container.get<ServiceMetrics>(TOKENS.Metrics), config.metrics.token).routes());
  const server = createServer(httpServerOptions(config.http), app.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.metrics.port, config.host, () => resolve());
  });
  return server;
}

/** The HTTP API, with the client limits (short timeouts for the API, the long one for local uploads). */
async function listen(container: Container, config: Config, logger: Logger): Promise<Server> {
  // What the families serve themselves (the local upload receiver), beside the API.
  const parts = MODULES.flatMap((module): HttpPart[] => {
    const part = module.http?.(container, config);
    return part ? [part] : [];
  });
  const app = createHttpApp({
    docChat: container.get<DocChat>(TOKENS.DocChat),
    identity: container.get<IdentityVerifier>(TOKENS.IdentityVerifier),
    probes: readinessProbes(container),
    corsOrigins: config.corsOrigins,
    logger,
    extraRouters: parts.flatMap((part) => part.routers),
    uploadUrlsAtRequestOrigin: config.blobs.kind === 'local' && config.uploadUrlsAtRequestOrigin,
    authFailuresPerMinute: config.http.authFailuresPerMinute,
    questionsPerUser: config.answering.perUserInFlight,
    trustProxy: config.http.trustProxy,
    metrics: container.get<ServiceMetrics>(TOKENS.Metrics),
    metricsOnApp: config.metrics.port === undefined,
    metricsToken: config.metrics.token,
    webApp: webAppOptions(config, logger),
    authConfig:
      config.auth.kind === 'supabase'
        ? { mode: 'supabase', supabaseUrl: config.auth.url, supabaseAnonKey: config.auth.anonKey }
        : { mode: 'local' },
  });
  const server = createServer(httpServerOptions(config.http));
  limitClients(server, app.callback(), config.http, {
    logger,
    isLongBody: (req) => parts.some((part) => part.isLongBody?.(req) ?? false),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  return server;
}

/** The built web app, allowed to reach the object store clients upload to and the identity provider. */
function webAppOptions(config: Config, logger: Logger) {
  const dir = webAppDir();
  if (!dir) {
    logger.warn('the web app is not built (npm run build): / is not served');
    return undefined;
  }
  const connectOrigins: string[] = [];
  if (config.blobs.kind === 's3') connectOrigins.push(new URL(config.blobs.publicUrl ?? config.blobs.endpoint).origin);
  if (config.auth.kind === 'supabase') connectOrigins.push(new URL(config.auth.url).origin);
  return { dir, connectOrigins };
}
