import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Container } from 'inversify';
import type { DocChat } from '../core/index.js';
import type { IdentityVerifier } from '../core/ports/identity-verifier.js';
import type { IngestJobRepo } from '../core/ports/ingest-job-repo.js';
import type { Logger } from '../core/ports/logger.js';
import type { InProcessJobQueue } from '../adapters/in-process-queue/in-process-job-queue.js';
import { LocalBlobStore } from '../adapters/local-blob/local-blob-store.js';
import type { SqliteDatabase } from '../adapters/sqlite/database.js';
import { localUploadRouter } from './http/routes/local-upload.routes.js';
import { createHttpApp } from './http/app.js';
import type { Config } from './config.js';
import { buildContainer, readinessProbes, TOKENS } from './container.js';

export interface RunningService {
  url: string;
  server: Server;
  container: Container;
  docChat: DocChat;
  /** Resolves when no ingestion is waiting or running. */
  whenIngestionIdle(): Promise<void>;
  close(): Promise<void>;
}

const SHUTDOWN_GRACE_MS = 5000;

/**
 * Builds the service from a configuration, prepares external dependencies (bucket, collection), resumes ingest jobs
 * a previous run left unfinished, and listens. Used by server/main.ts, the end-to-end tests and the benchmarks.
 */
export async function startService(config: Config, options: { logger?: Logger } = {}): Promise<RunningService> {
  const container = await buildContainer(config, options);
  const logger = container.get<Logger>(TOKENS.Logger);
  const closeables: (() => Promise<void>)[] = [];

  for (const token of [TOKENS.BlobStore, TOKENS.DenseIndex]) {
    const adapter = container.get<{ init?: () => Promise<void> }>(token, { optional: true });
    if (adapter && typeof adapter.init === 'function') await adapter.init();
  }

  const blobs = container.get(TOKENS.BlobStore);
  const app = createHttpApp({
    docChat: container.get<DocChat>(TOKENS.DocChat),
    identity: container.get<IdentityVerifier>(TOKENS.IdentityVerifier),
    probes: readinessProbes(container),
    corsOrigins: config.corsOrigins,
    logger,
    extraRouters: blobs instanceof LocalBlobStore ? [localUploadRouter(blobs)] : [],
  });

  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  // Uploads of 50 MB on slow links must not be cut off by Node's default request timeout.
  server.requestTimeout = 15 * 60 * 1000;
  const port = (server.address() as AddressInfo).port;

  const queue = container.get<InProcessJobQueue>(TOKENS.JobQueue);
  const unfinished = await container.get<IngestJobRepo>(TOKENS.IngestJobRepo).listUnfinished();
  if (unfinished.length > 0) logger.info('resuming unfinished ingest jobs', { count: unfinished.length });
  for (const job of unfinished) queue.enqueue(job.id);

  closeables.push(
    () => new Promise<void>((resolve) => server.close(() => resolve())),
    () => Promise.race([queue.stop(), new Promise<void>((r) => setTimeout(r, SHUTDOWN_GRACE_MS).unref())]),
    async () => {
      const reader = container.get<{ close?: () => Promise<void> }>(TOKENS.DocumentReader);
      await reader.close?.();
    },
    () => container.get<SqliteDatabase>(TOKENS.Database).close(),
  );

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    container,
    docChat: container.get<DocChat>(TOKENS.DocChat),
    whenIngestionIdle: () => queue.whenIdle(),
    close: () => {
      server.closeAllConnections?.();
      closing ??= (async () => {
        for (const close of closeables) {
          await close().catch((error) => logger.warn('error while shutting down', { error: String(error) }));
        }
      })();
      return closing;
    },
  };
}
