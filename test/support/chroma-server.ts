import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

export interface ChromaServer {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  host: string;
  port: number;
  /** Kills the server and removes its data directory. Safe to call more than once. */
  stop(): Promise<void>;
}

export interface ChromaServerOptions {
  /** How long to wait for the heartbeat (default 20 000 ms). */
  startTimeoutMs?: number;
  /** Listen on this port of 127.0.0.1 (default: a free one), e.g. to restart a stopped server where clients expect it. */
  port?: number;
  /**
   * Persist into this directory, which the caller owns: it is not removed when the server stops, so a server started
   * later on it finds the same collections and records. Default: a fresh temp directory, removed on stop.
   */
  dataDir?: string;
}

/**
 * The chromadb package's own server (`dist/cli.mjs run`, a native Rust server behind the JS bindings) on
 * 127.0.0.1, a free port and a fresh temp dir, resolved once its heartbeat answers.
 *
 * The server is never left running:
 * - the native server blocks the JS thread of its process, so it cannot watch anything itself; it runs under a
 *   small guardian process that kills it when the guardian's stdin closes (this process exited, even by SIGKILL)
 *   or when the guardian gets SIGTERM / SIGINT;
 * - `stop()` (call it in `after()`) and this process's `exit` event both signal the guardian.
 */
export async function startChromaServer(options: ChromaServerOptions = {}): Promise<ChromaServer> {
  // A free port found here may be taken by another process before the server binds it ("Address … is not
  // available"): then another one, unless the caller named the port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(options, options.port ?? (await freePort(HOST)));
    } catch (error) {
      if (options.port !== undefined || attempt >= PORT_ATTEMPTS || !/is not available|address already in use/i.test(String(error))) throw error;
    }
  }
}
const HOST = '127.0.0.1';
/** Ports tried when the one found free is taken before the server binds it. */
const PORT_ATTEMPTS = 3;

async function startOn(options: ChromaServerOptions, port: number): Promise<ChromaServer> {
  const startTimeoutMs = options.startTimeoutMs ?? 20_000;
  const cli = chromaCli();
  const host = HOST;
  // A directory the caller gives is the caller's: kept when the server stops, so a new server can reopen it.
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'chroma-test-'));
  const url = `http://${host}:${port}`;

  const guardian = spawn(
    process.execPath,
    ['-e', GUARDIAN, ownsDataDir ? dataDir : '', cli, 'run', '--path', dataDir, '--host', host, '--port', String(port)],
    { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let output = '';
  const keep = (data: Buffer) => {
    output = (output + data.toString()).slice(-8_000);
  };
  guardian.stdout!.on('data', keep);
  guardian.stderr!.on('data', keep);
  // The pipe stays open for our whole life; its end is the guardian's signal that we are gone.
  guardian.stdin!.on('error', () => {});
  live.add(guardian);
  const exited = new Promise<void>((resolve) => guardian.once('exit', () => resolve()));
  guardian.once('exit', () => live.delete(guardian));

  let stopped = false;
  const stop = async () => {
    if (!stopped) {
      stopped = true;
      if (guardian.exitCode === null && guardian.signalCode === null) {
        guardian.kill('SIGTERM');
        const timer = setTimeout(() => guardian.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
    }
    if (ownsDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHeartbeat(url, startTimeoutMs, () =>
      guardian.exitCode !== null || guardian.signalCode !== null
        ? `the server exited (${guardian.exitCode ?? guardian.signalCode}); output:\n${output}`
        : undefined,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, host, port, stop };
}

/**
 * Runs in the guardian (`node -e`, CommonJS): starts the server as its child, and kills it on stdin end, SIGTERM,
 * SIGINT or SIGHUP; once the child is gone, removes the data directory (when one is named: '' keeps it) and exits.
 */
const GUARDIAN = `
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const [dataDir, cli, ...args] = process.argv.slice(1);
const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
let killing = false;
const stop = () => {
  if (killing) return;
  killing = true;
  child.kill('SIGTERM');
  setTimeout(() => child.kill('SIGKILL'), 3000).unref();
};
child.on('exit', (code) => {
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(killing ? 0 : code ?? 1);
});
child.on('error', (error) => { console.error(String(error)); process.exit(1); });
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, stop);
`;

/** Guardians still running: signalled when this process exits, however the tests ended. */
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const guardian of live) guardian.kill('SIGTERM');
});

/** dist/cli.mjs of the installed chromadb package (its exports map hides both the CLI and package.json). */
function chromaCli(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve('chromadb'));
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  const cli = path.join(dir, 'dist', 'cli.mjs');
  if (!fs.existsSync(cli)) throw new Error(`chromadb CLI not found at ${cli}`);
  return cli;
}

async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHeartbeat(url: string, timeoutMs: number, failed: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    const reason = failed();
    if (reason) throw new Error(`Chroma server did not start: ${reason}`);
    try {
      const response = await fetch(`${url}/api/v2/heartbeat`, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) return;
      last = new Error(`heartbeat answered ${response.status}`);
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Chroma server at ${url} did not answer its heartbeat within ${timeoutMs} ms: ${String(last)}`);
}
