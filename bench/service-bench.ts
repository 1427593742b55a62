/** The service in its own process (compiled, as production runs it) and the measurements the ingestion benches share. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiClient } from '../test/support/api-client.js';
import { freePort } from '../test/support/free-port.js';
import { buildDist, COMPILED_SERVER_ARGS, compiledServerEnv } from './compiled-server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..');
export const SECRET = 'ingestion-limits-bench-secret-0123456789';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Server {
  pid: number;
  baseUrl: string;
  stop(): Promise<void>;
}

/** BENCH_NODE_ARGS="--flag …": Node options a bench adds to the service's command line (an A/B of V8 settings). */
export function benchNodeArgs(): string[] {
  return (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
}

/** `nodeArgs` go before the entry point (e.g. --cpu-prof, memoryTraceArgs()). */
export async function startServer(env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<Server> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-bench-data-'));
  // As production runs it (compiled, plain node): under tsx the server alone holds ~100 MB more.
  buildDist();
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, ...COMPILED_SERVER_ARGS], {
    cwd: repoRoot,
    env: compiledServerEnv({ ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}`, AUTH_JWT_SECRET: SECRET }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ok = await fetch(`${baseUrl}/api/v1/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (i > 300 || child.exitCode !== null) throw new Error('the service did not start');
    await sleep(100);
  }
  return {
    pid: child.pid!,
    baseUrl,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The process the health probes come from: plain node (no TypeScript loader), one keep-alive connection, nothing else
 * to do. Probes sent from the bench's own event loop also timed that process's work: sending a 36 MB upload made the
 * slowest probe 63-86 ms, and its garbage collections took both cores from the service (seen with perf sched); the
 * idle p99 the health target divides by ranged 2.1-4.4 ms run to run from the bench process, 1.4-2.7 from this one.
 */
const PROBER_SOURCE = `
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const url = process.env.PROBE_URL;
const get = () => new Promise((resolve) => {
  const t0 = performance.now();
  const request = http.get(url, { agent }, (res) => { res.resume(); res.on('end', () => resolve([performance.now() - t0, res.statusCode === 200])); });
  request.on('error', () => resolve([performance.now() - t0, false]));
});
let stopped = false;
process.on('message', async (message) => {
  if (message === 'stop') return void (stopped = true);
  stopped = false;
  const times = [];
  let failures = 0;
  while (!stopped && (message.count === undefined || times.length < message.count)) {
    const [ms, ok] = await get();
    times.push(ms);
    if (!ok) failures++;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  process.send({ times, failures });
});
`;

/**
 * Sequential GET /api/v1/health probes (10 ms apart) from a process of their own (see PROBER_SOURCE), `count` of them
 * or until `until` settles. A probe that fails (e.g. a keep-alive connection the server dropped while it was stalled)
 * counts with the time it took, and is counted.
 */
export class HealthProber {
  private constructor(private readonly child: ChildProcess) {}

  static start(baseUrl: string): HealthProber {
    const child = spawn(process.execPath, ['-e', PROBER_SOURCE], {
      env: { ...process.env, NODE_OPTIONS: '', PROBE_URL: `${baseUrl}/api/v1/health` },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new HealthProber(child);
  }

  async probe(options: { count: number } | { until: Promise<unknown> }): Promise<{ times: number[]; failures: number }> {
    const result = new Promise<{ times: number[]; failures: number }>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the health prober exited (${code})`));
      this.child.once('exit', exited);
      this.child.once('message', (message) => {
        this.child.off('exit', exited);
        resolve(message as { times: number[]; failures: number });
      });
    });
    this.child.send('count' in options ? { count: options.count } : {});
    if ('until' in options) void options.until.finally(() => this.child.send('stop')).catch(() => {});
    return result;
  }

  stop(): void {
    this.child.kill();
  }
}

export async function ingest(api: ApiClient, sessionId: string, file: string, timeoutMs: number): Promise<{ seconds: number; job: any }> {
  const bytes = fs.readFileSync(file);
  const t0 = performance.now();
  const { jobId } = await api.uploadAndIngest(sessionId, path.basename(file), bytes, 'application/pdf');
  const job = await api.waitForJob(jobId, timeoutMs);
  return { seconds: (performance.now() - t0) / 1000, job };
}

export function rawPdfParse(file: string): { seconds: number; pages: number; peakRssMb: number } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, 'raw-pdf-parse.ts'), file], { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`raw pdf-parse failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!);
}

