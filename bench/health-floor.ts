/**
 * The floor under issue 18's health target: GET /health p99 of a bare HTTP server (its own process, a fixed JSON
 * answer, no other work) while the extraction pool alone reads the same file, against the same server idle. What
 * the service adds to the tail is the difference between its ratio and this one; what this one shows is the
 * machine's: how long a woken request thread waits for a core that extraction processes hold.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { ChildProcessDocumentReader, DEFAULT_EXTRACTION_NICENESS } from '../adapters/extraction/index.js';
import { percentile } from './metrics.js';
import { HealthProber } from './service-bench.js';

const BARE_SERVER = `const http = require('node:http');
const server = http.createServer((request, response) => { response.setHeader('content-type', 'application/json'); response.end('{"status":"ok"}'); });
server.listen(0, '127.0.0.1', () => process.send(server.address().port));`;

export interface HealthFloor {
  idle: number[];
  reading: number[];
  seconds: number;
}

/** Probes the bare server 500 times idle, then until the pool (EXTRACTION_WORKERS, EXTRACTION_NICENESS) has read `file`. */
export async function healthFloor(file: string): Promise<HealthFloor> {
  const server = spawn(process.execPath, ['-e', BARE_SERVER], { env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('message', (message) => resolve(message as number));
    server.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
  });
  const prober = HealthProber.start(`http://127.0.0.1:${port}`);
  const reader = new ChildProcessDocumentReader({
    poolSize: Number(process.env.EXTRACTION_WORKERS ?? 2),
    niceness: Number(process.env.EXTRACTION_NICENESS ?? DEFAULT_EXTRACTION_NICENESS),
  });
  try {
    const idle = (await prober.probe({ count: 500 })).times;
    const t0 = performance.now();
    const reading = reader.read({ document: new Uint8Array(fs.readFileSync(file)), contentType: 'application/pdf' });
    const probes = (await prober.probe({ until: reading })).times;
    await reading;
    return { idle, reading: probes, seconds: (performance.now() - t0) / 1000 };
  } finally {
    await reader.close();
    prober.stop();
    server.kill();
  }
}

export const p99Ratio = (floor: HealthFloor) => percentile(floor.reading, 99) / percentile(floor.idle, 99);
