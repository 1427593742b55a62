import fs from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/** s3rver ships no types; this is the part used here. */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets?: Array<{ name: string }>;
}) => S3rverInstance;

const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

export interface S3Server {
  /** e.g. `http://127.0.0.1:41234` */
  url: string;
  accessKey: string;
  secretKey: string;
  port: number;
  /** Where the objects are kept on disk. */
  directory: string;
  /** Stops the server and deletes its directory (unless the caller gave the directory: then it is kept). */
  stop(): Promise<void>;
}

export interface S3ServerOptions {
  /** Buckets created at start when missing. */
  buckets?: string[];
  /** Listen on this port of 127.0.0.1 (default: a free one), e.g. to restart a stopped server where clients expect it. */
  port?: number;
  /** Keep the objects in this directory, which the caller owns: it is not removed on stop, a later server reopens it. */
  directory?: string;
}

/**
 * An in-process s3rver on 127.0.0.1 with a random port and a fresh temp directory. Keys S3RVER/S3RVER.
 * s3rver checks expiry but not V4 signatures: signature tests need a real S3 server (the SeaweedFS Testcontainers suite).
 */
export async function startS3Server(options: S3ServerOptions = {}): Promise<S3Server> {
  const ownsDirectory = options.directory === undefined;
  const directory = options.directory ?? (await fs.mkdtemp(path.join(os.tmpdir(), 's3rver-')));
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    silent: true,
    directory,
    configureBuckets: (options.buckets ?? []).map((name) => ({ name })),
  });
  let address: AddressInfo;
  try {
    address = await server.run();
  } catch (error) {
    if (ownsDirectory) await fs.rm(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `http://127.0.0.1:${address.port}`,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    port: address.port,
    directory,
    async stop() {
      const closed = server.close();
      server.httpServer?.closeAllConnections();
      await closed;
      if (ownsDirectory) await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
