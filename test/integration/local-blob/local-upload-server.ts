import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { LocalBlobStore, type LocalBlobStoreOptions } from '../../../adapters/local-blob/local-blob-store.js';
import { localUploadRouter } from '../../../server/http/routes/local-upload.routes.js';

export interface LocalUploadServer {
  store: LocalBlobStore;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** The store's directory (a fresh temp dir inside `parent`). */
  directory: string;
  /** A temp dir around `directory`, to check nothing is written beside the store. */
  parent: string;
  stop(): Promise<void>;
}

/** A LocalBlobStore behind a real Koa server on 127.0.0.1:0 with only the upload route mounted. */
export async function startLocalUploadServer(
  options: Partial<Omit<LocalBlobStoreOptions, 'directory' | 'publicUrl'>> = {},
): Promise<LocalUploadServer> {
  const parent = await fs.mkdtemp(path.join(os.tmpdir(), 'local-blob-'));
  const directory = path.join(parent, 'store');
  const app = new Koa();
  // Client aborts (tests that hang up half-way) are expected; anything else is printed.
  app.on('error', (error: { code?: string; message?: string }) => {
    if (error.code === 'ECONNRESET' || error.code?.startsWith('HPE_') || error.message === 'aborted') return;
    console.error('upload server error:', error);
  });
  let handler: http.RequestListener | undefined;
  const server = http.createServer((req, res) => handler?.(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const store = new LocalBlobStore({ secret: 'test-secret-0123456789abcdef', ...options, directory, publicUrl: baseUrl });
  await store.init();
  app.use(localUploadRouter(store).routes());
  handler = app.callback();
  return {
    store,
    baseUrl,
    directory,
    parent,
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await fs.rm(parent, { recursive: true, force: true });
    },
  };
}

export async function httpPut(url: string, body: Uint8Array, contentType: string | undefined): Promise<number> {
  const headers: Record<string, string> = {};
  if (contentType !== undefined) headers['content-type'] = contentType;
  const response = await fetch(url, { method: 'PUT', body, headers });
  await response.arrayBuffer();
  return response.status;
}
