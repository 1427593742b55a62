/**
 * Authenticated GET /api/v1/chat/history/:id requests/s (embedded defaults, a page of 20 messages) against a bare Koa
 * hello-world, each server in its own process, loaded by autocannon with 20 connections from this process; measured in
 * the same run, so the ratio holds on whatever machine runs it (issue 10's target: ≥ 0.5).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Koa from 'koa';
import type { SqliteDatabase } from '../adapters/sqlite/database.js';
import { TOKENS } from '../server/tokens.js';
import { signLocalToken } from '../adapters/local-jwt/local-jwt-verifier.js';
import { startTestService, TEST_JWT_SECRET } from '../test/support/test-service.js';

const CONNECTIONS = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const TARGET_RATIO = 0.5;

interface Target {
  url: string;
  headers?: Record<string, string>;
}

/** Child mode: start one server, print its target as a JSON line, serve until killed. */
async function serve(kind: string): Promise<void> {
  if (kind === 'hello') {
    const app = new Koa();
    app.use((ctx) => (ctx.body = 'hello'));
    const server = app.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      console.log(JSON.stringify({ url: `http://127.0.0.1:${port}/` }));
    });
    return;
  }
  const test = await startTestService();
  const api = await test.as('throughput-user');
  const sessionId = await api.createSession('history');
  const database = test.service.container.get<SqliteDatabase>(TOKENS.SqliteDatabase);
  const insert = database.raw.prepare('INSERT INTO chat_messages (id, session_id, role, content, created_at) VALUES (?, ?, ?, ?, ?)');
  for (let i = 0; i < 20; i++) insert.run(`m${i}`, sessionId, i % 2 ? 'assistant' : 'user', `message ${i} `.repeat(20), new Date().toISOString());
  process.once('SIGTERM', () => void test.close().finally(() => process.exit(0)));
  console.log(JSON.stringify({ url: `${test.baseUrl}/api/v1/chat/history/${sessionId}?page=0`, headers: { authorization: `Bearer ${await signLocalToken(TEST_JWT_SECRET, 'throughput-user')}` } }));
}

function startChild(kind: string): Promise<{ child: ChildProcess; target: Target }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), kind], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${kind} server exited (${code})`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve({ child, target: JSON.parse(line) as Target }));
  });
}

async function requestsPerSecond(target: Target): Promise<number> {
  const run = (duration: number) => autocannon({ url: target.url, headers: target.headers, connections: CONNECTIONS, duration });
  await run(1); // warm-up: JIT, statement caches
  const result = await run(SECONDS);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

async function main(): Promise<void> {
  const results: Record<string, number> = {};
  for (const kind of ['hello', 'app']) {
    const { child, target } = await startChild(kind);
    try {
      results[kind] = await requestsPerSecond(target);
    } finally {
      child.removeAllListeners('exit');
      child.kill('SIGKILL');
    }
  }
  const ratio = results.app / results.hello;
  console.log(`HTTP throughput (${CONNECTIONS} connections, ${SECONDS} s each, servers in their own processes)`);
  console.log(`  bare Koa hello-world                 ${results.hello.toFixed(0)} req/s`);
  console.log(`  authenticated history page (20 msgs) ${results.app.toFixed(0)} req/s`);
  console.log(`  ratio                                ${ratio.toFixed(2)}  (target ≥ ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`);
  if (ratio < TARGET_RATIO) process.exitCode = 1;
}

const mode = process.argv[2];
(mode ? serve(mode) : main()).catch((error) => {
  console.error(error);
  process.exit(1);
});
