/**
 * Authenticated GET /api/v1/chat/history/:id requests/s against a bare Koa hello-world, both as production runs them:
 * plain node, the service compiled (`node dist/server/main.js`, embedded defaults, LOG_LEVEL at its default so every
 * request is logged, its log written to a file). A session holds 20 messages (one page). autocannon loads each server
 * with 20 connections from this process, in rounds that alternate hello and app, so both see the same machine; the
 * medians decide (issue 10's target: app/hello ≥ 0.5). Also printed per run: the server's and the load generator's CPU,
 * and the server's CPU time per request, which noise from other processes disturbs far less than requests/s; and, for
 * reference, the hello-world answering the page's own JSON: what the response alone costs, whatever the service does.
 * BENCH_SECONDS (default 8) per measurement, BENCH_ROUNDS (default 3); BENCH_CPU_PROF=<folder> runs the service with
 * node --cpu-prof and leaves its profile there.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { signLocalToken } from '../adapters/local-jwt/local-jwt-verifier.js';
import { CONFIG_VARIABLES } from '../server/config.js';
import { freePort } from '../test/support/free-port.js';
import { REPO_ROOT } from '../test/support/paths.js';
import { percentile } from './metrics.js';

const CONNECTIONS = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET_RATIO = 0.5;
const MESSAGES = 20;
const SECRET = 'http-throughput-bench-secret-0123456789abcdef';
const USER = 'throughput-user';
const CLOCK_TICKS_PER_SECOND = 100; // Linux USER_HZ, what /proc/<pid>/stat counts in

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Target {
  name: 'hello' | 'hello-page' | 'app';
  url: string;
  headers?: Record<string, string>;
  process: ChildProcess;
}

interface Run {
  requestsPerSecond: number;
  serverCpu: number; // share of one core
  loadCpu: number; // share of one core, this process (autocannon)
  serverMicrosPerRequest: number;
}

function build(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('tsc -p tsconfig.build.json failed');
}

/** Plain node, no loader flags or service settings inherited from this process. */
function plainEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [...CONFIG_VARIABLES, 'NODE_OPTIONS']) delete env[name];
  return Object.assign(env, extra);
}

async function waitUntilAnswering(url: string, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await fetch(url).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${what} did not answer ${url} within 30 s`);
    await sleep(100);
  }
}

/** The bare Koa hello-world; given a JSON file, the same server answering with that document instead. */
async function startHello(jsonFile?: string): Promise<Target> {
  const port = await freePort();
  const body = jsonFile ? `JSON.parse(fs.readFileSync(${JSON.stringify(jsonFile)}, 'utf8'))` : `'hello'`;
  const source = `import fs from 'node:fs'; import Koa from 'koa'; const body = ${body}; const app = new Koa();
    app.use((ctx) => (ctx.body = body)); app.listen(${port}, '127.0.0.1');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], { cwd: REPO_ROOT, env: plainEnv({}), stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  await waitUntilAnswering(url, child, 'the hello-world');
  return { name: jsonFile ? 'hello-page' : 'hello', url, process: child };
}

async function startApp(dataDir: string, logFile: string, pageFile: string): Promise<Target> {
  const port = await freePort();
  const env = plainEnv({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, AUTH_JWT_SECRET: SECRET });
  const log = fs.openSync(logFile, 'w');
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  const child = spawn(process.execPath, [...profile, 'dist/server/main.js'], { cwd: REPO_ROOT, env, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  const base = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(`${base}/api/v1/health`, child, 'the service');
  const authorization = `Bearer ${await signLocalToken(SECRET, USER)}`;
  const created = await fetch(`${base}/api/v1/session/`, {
    method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ label: 'history' }),
  });
  if (created.status !== 201) throw new Error(`creating the session answered ${created.status}`);
  const sessionId = ((await created.json()) as { data: { id: string } }).data.id;
  // The chat route would need a model to write these; the history route only reads rows, so they are written directly.
  const db = new Database(path.join(dataDir, 'doc-chat.sqlite'));
  db.pragma('busy_timeout = 5000');
  const insert = db.prepare('INSERT INTO chat_messages (id, session_id, role, content, created_at) VALUES (?, ?, ?, ?, ?)');
  for (let i = 0; i < MESSAGES; i++) insert.run(`m${i}`, sessionId, i % 2 ? 'assistant' : 'user', `message ${i} `.repeat(20), new Date().toISOString());
  db.close();
  const url = `${base}/api/v1/chat/history/${sessionId}?page=0`;
  const page = await fetch(url, { headers: { authorization } });
  const body = (await page.json()) as { data?: unknown[] };
  if (page.status !== 200 || body.data?.length !== MESSAGES) throw new Error(`the history page answered ${page.status} with ${body.data?.length} messages`);
  fs.writeFileSync(pageFile, JSON.stringify(body));
  return { name: 'app', url, headers: { authorization }, process: child };
}

/** User plus system CPU time of one process, in seconds. */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from the 3rd on (the name may hold spaces)
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

async function measure(target: Target): Promise<Run> {
  const load = (duration: number) => autocannon({ url: target.url, headers: target.headers, connections: CONNECTIONS, duration });
  await load(3); // warm-up: JIT, statement caches
  const serverBefore = cpuSeconds(target.process.pid!);
  const loadBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const result = await load(SECONDS);
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const server = cpuSeconds(target.process.pid!) - serverBefore;
  const loadUsage = process.cpuUsage(loadBefore);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    requestsPerSecond: result.requests.average,
    serverCpu: server / elapsed,
    loadCpu: (loadUsage.user + loadUsage.system) / 1e6 / elapsed,
    serverMicrosPerRequest: (server * 1e6) / result.requests.total,
  };
}

function describe(run: Run): string {
  const pct = (share: number) => `${(share * 100).toFixed(0)}%`.padStart(4);
  return `${run.requestsPerSecond.toFixed(0).padStart(6)} req/s  server CPU ${pct(run.serverCpu)}  autocannon CPU ${pct(run.loadCpu)}  ${run.serverMicrosPerRequest.toFixed(0).padStart(4)} µs server CPU/request`;
}

async function main(): Promise<void> {
  build();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-throughput-'));
  const logFile = path.join(dataDir, 'service.log');
  const targets: Target[] = [];
  try {
    const pageFile = path.join(dataDir, 'page.json');
    targets.push(await startHello());
    const app = await startApp(dataDir, logFile, pageFile);
    targets.push(await startHello(pageFile), app);
    const runs: Record<Target['name'], Run[]> = { hello: [], 'hello-page': [], app: [] };
    console.log(`HTTP throughput (${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} rounds, servers in their own processes, ${os.cpus().length} cores)`);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of targets) {
        const run = await measure(target);
        runs[target.name].push(run);
        console.log(`  round ${round} ${target.name.padEnd(10)} ${describe(run)}`);
      }
    }
    const median = (name: Target['name'], field: keyof Run) => percentile(runs[name].map((run) => run[field]), 50);
    const logged = fs.readFileSync(logFile, 'utf8').split('\n').filter((line) => line.includes('"request completed"')).length;
    const hello = median('hello', 'requestsPerSecond');
    const appRate = median('app', 'requestsPerSecond');
    const ratio = appRate / hello;
    const cpuRatio = median('hello', 'serverMicrosPerRequest') / median('app', 'serverMicrosPerRequest');
    console.log('medians');
    console.log(`  bare Koa hello-world (plain node)                  ${hello.toFixed(0)} req/s, ${median('hello', 'serverMicrosPerRequest').toFixed(0)} µs CPU/request`);
    console.log(`  the same Koa hello-world answering the page's JSON ${median('hello-page', 'requestsPerSecond').toFixed(0)} req/s, ${median('hello-page', 'serverMicrosPerRequest').toFixed(0)} µs CPU/request`);
    console.log(`    (what the response alone costs: ${(median('hello-page', 'requestsPerSecond') / hello).toFixed(2)} of the hello-world)`);
    console.log(`  authenticated history page, ${MESSAGES} messages           ${appRate.toFixed(0)} req/s, ${median('app', 'serverMicrosPerRequest').toFixed(0)} µs CPU/request`);
    console.log(`    (node dist/server/main.js, LOG_LEVEL info: ${logged} request lines logged)`);
    console.log(`  server CPU per request, hello / app                ${cpuRatio.toFixed(2)}`);
    console.log(`  ratio app / hello (req/s)                          ${ratio.toFixed(2)}  (target ≥ ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`);
    if (ratio < TARGET_RATIO) process.exitCode = 1;
  } finally {
    for (const target of targets) {
      target.process.kill('SIGTERM');
      await new Promise((resolve) => (target.process.exitCode !== null ? resolve(undefined) : target.process.once('exit', resolve)));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
