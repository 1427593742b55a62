/**
 * Issue 48, point 7: cheap requests stay cheap under load. The compiled service (embedded stack, its defaults, the
 * per-address connection cap raised so the load is not refused) holds five users, each with a session holding three
 * real PDFs and 20 answered questions (one service ingests; each measured one starts on that data, its histories reset
 * to the 20 questions). A load client in a process of its own (bench/load-client.ts), all from 127.0.0.1, then runs:
 *   - mixed, BENCH_SECONDS (default 20): each user 5 askers (JSON answers, questions about the PDFs, in a loop) and 5
 *     history readers (page 0 of the user's session): history p50/p99 and req/s, chat req/s and p50/p95, over all
 *     users' responses; the request thread's share of time waiting runnable for a CPU; the event loop's p99 delay;
 *   - throughput: history readers only (BENCH_CONNECTIONS, default 20) against the service and
 *     against the least a Koa + jose + better-sqlite3 server does for the same page (bench/minimal-history-server.ts,
 *     reading the service's database file), BENCH_ROUNDS (default 3) rounds of BENCH_THROUGHPUT_SECONDS (default 8)
 *     alternating the two; the medians' ratio, on two pages: one user's page 0 (20 answered questions with their
 *     sources, ~35 KB) and 20 short messages written straight into the database (bench/http-throughput.ts's, ~6 KB).
 * Targets: history p99 ≤ 50 ms under the mixed load; history req/s ≥ 0.8 of the minimal server's on both pages.
 * BENCH_PART=mixed|throughput: only that part. BENCH_SERVICE_ENV="NAME=value …": settings added to every service's
 * environment. BENCH_VARIANTS="NAME=value …;NAME=value …": the mixed load once per variant (a service started with
 * those settings on the same data), BENCH_REPEAT times alternating (default 1): an A/B run back to back.
 * BENCH_CPU_PROF=<folder>: each service runs with node --cpu-prof (one profile per thread, a folder per service).
 * 2 cores shared with the load client: absolute figures depend on what else the machine runs.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CONFIG_VARIABLES } from '../server/config.js';
import { freePort } from '../test/support/free-port.js';
import { REPO_ROOT } from '../test/support/paths.js';
import { buildDist } from './compiled-server.js';
import type { ClientReply, LoadOutcome, LoadPlan, LoadRequest } from './load-client.js';
import { prepareUsers, QUESTIONS, resetHistories, SECRET, startService, stopService, type User } from './load-service.js';
import { percentile } from './metrics.js';
import { schedBetween, schedSample, type SchedTimes, type Service } from './service-probes.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const THROUGHPUT_SECONDS = Number(process.env.BENCH_THROUGHPUT_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const USERS = 5;
const CLIENTS_PER_USER = 5;
/**
 * BENCH_HISTORY_RATE: the mixed load's history readers send this many requests/s in all (open loop) instead of asking
 * again when answered: closed-loop readers answered faster ask more and take CPU from the answers, so chat req/s of two
 * variants compare under different loads; at a fixed rate they compare at the same one.
 */
const HISTORY_RATE = Number(process.env.BENCH_HISTORY_RATE ?? 0);
/** BENCH_VARIANTS' mixed runs, each this many times (alternating). */
const REPEAT = Number(process.env.BENCH_REPEAT ?? 1);
/** mixed, throughput or both (default). */
const PART = process.env.BENCH_PART ?? 'both';
const TARGET = { historyP99Ms: 50, throughputRatio: 0.8 };

const historyRequest = (user: User, sessionId = user.sessionId): LoadRequest => ({
  method: 'GET', path: `/api/v1/chat/history/${sessionId}?page=0`, headers: { authorization: `Bearer ${user.token}` },
});

const chatRequests = (user: User): LoadRequest[] => QUESTIONS.map((message) => ({
  method: 'POST', path: '/api/v1/chat/completions',
  headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
  body: JSON.stringify({ sessionId: user.sessionId, message }),
}));

/** Runs `plan` in a load client process of its own (plain node: Node strips load-client.ts's types). */
function runClient(plan: LoadPlan): Promise<ClientReply> {
  const client = spawn(process.execPath, [path.join(REPO_ROOT, 'bench/load-client.ts')], {
    cwd: REPO_ROOT, env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    client.once('message', (reply) => resolve(reply as ClientReply));
    client.once('exit', (code) => reject(new Error(`the load client exited (${code}) without its figures`)));
    client.send(plan);
  });
}

interface Merged { requests: number; failures: number; rps: number; latencies: number[] }

function merge(outcomes: LoadOutcome[], prefix: string): Merged {
  const mine = outcomes.filter((o) => o.label.startsWith(prefix));
  const latencies = mine.flatMap((o) => o.latencies);
  const seconds = Math.max(...mine.map((o) => o.seconds));
  return { requests: latencies.length, failures: mine.reduce((n, o) => n + o.failures, 0), rps: latencies.length / seconds, latencies };
}

/** The event loop's p99 delay the service reported (prom-client, since its last scrape), in ms. */
async function eventLoopLagP99(service: Service): Promise<number | undefined> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('doc_chat_nodejs_eventloop_lag_p99_seconds '));
  return line ? 1000 * Number(line.split(' ')[1]) : undefined;
}

async function mixedLoad(service: Service, users: User[]) {
  await resetHistories(service, users);
  await eventLoopLagP99(service); // starts the lag histogram's window here
  const schedBefore = schedSample(service.process.pid!);
  const { outcomes, clientRunMs, clientWaitMs } = await runClient({
    baseUrl: service.url, seconds: SECONDS,
    loads: users.flatMap((user) => [
      { label: `chat ${user.id}`, connections: CLIENTS_PER_USER, requests: chatRequests(user) },
      { label: `history ${user.id}`, connections: CLIENTS_PER_USER, requests: [historyRequest(user)], ...(HISTORY_RATE ? { rate: HISTORY_RATE / users.length } : {}) },
    ]),
  });
  const sched = schedBetween(service.process.pid!, schedBefore, schedSample(service.process.pid!));
  const lag = await eventLoopLagP99(service);
  return { chat: merge(outcomes, 'chat'), history: merge(outcomes, 'history'), sched, lag, client: { runMs: clientRunMs, waitMs: clientWaitMs } };
}

/** The minimal server on the service's database file (read-only; WAL lets it read beside the service). */
async function startMinimal(dbFile: string): Promise<Service> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', PORT: String(port), DB_FILE: dbFile, JWT_SECRET: SECRET };
  for (const name of CONFIG_VARIABLES) if (name !== 'PORT') delete env[name];
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bench/minimal-history-server.ts')], { cwd: REPO_ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; !(await fetch(url).then(() => true, () => false)); i++) {
    if (child.exitCode !== null || i > 100) throw new Error('the minimal history server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, process: child };
}

/** User plus system CPU seconds of a whole process (Linux /proc). */
function processCpu(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function historyOnly(server: Service, request: LoadRequest): Promise<Run> {
  const plan = (seconds: number): LoadPlan => ({ baseUrl: server.url, seconds, loads: [{ label: 'history', connections: CONNECTIONS, requests: [request] }] });
  await runClient(plan(2)); // warm-up: JIT, caches
  const cpuBefore = processCpu(server.process.pid!);
  const { outcomes: [outcome] } = await runClient(plan(THROUGHPUT_SECONDS));
  const cpu = processCpu(server.process.pid!) - cpuBefore;
  if (outcome.failures > 0) throw new Error(`${server.url}: ${outcome.failures} failed history requests (${JSON.stringify(outcome.statuses)})`);
  return { rps: outcome.latencies.length / outcome.seconds, p99: percentile(outcome.latencies, 99), cpuMicrosPerRequest: (cpu * 1e6) / outcome.latencies.length };
}

interface Run { rps: number; p99: number; cpuMicrosPerRequest: number }

/** The same page from both servers, or the ratio compares different work; its size in bytes. */
async function samePage(app: Service, minimal: Service, request: LoadRequest): Promise<number> {
  const [a, b] = await Promise.all([app, minimal].map(async (s) => (await fetch(`${s.url}${request.path}`, { headers: request.headers })).text()));
  if (a !== b) throw new Error(`the minimal server answers another page than the service:\n${a.slice(0, 300)}\n${b.slice(0, 300)}`);
  if ((JSON.parse(a) as { data: unknown[] }).data.length !== 20) throw new Error('the history page should hold 20 turns');
  return Buffer.byteLength(a);
}

/**
 * A second session of `user` holding 20 short messages written straight into the database, as bench/http-throughput.ts
 * pages them (no answer, no sources: 5-6 KB): the page where the fixed costs (token, routing, statement) weigh most.
 */
async function plainSession(service: Service, user: User, dbFile: string): Promise<string> {
  const created = await fetch(`${service.url}/api/v1/session/`, {
    method: 'POST', headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ label: 'plain history' }),
  });
  if (created.status !== 201) throw new Error(`creating the session answered ${created.status}`);
  const sessionId = ((await created.json()) as { data: { id: string } }).data.id;
  const db = new Database(dbFile);
  db.pragma('busy_timeout = 5000');
  const insert = db.prepare('INSERT INTO chat_messages (id, session_id, role, content, created_at) VALUES (?, ?, ?, ?, ?)');
  for (let i = 0; i < 20; i++) insert.run(`plain-${i}`, sessionId, i % 2 ? 'assistant' : 'user', `message ${i} `.repeat(20), new Date().toISOString());
  db.close();
  return sessionId;
}

/** History readers only: the service and the minimal server in alternate runs on one page; the medians' ratio. */
async function throughput(service: Service, minimal: Service, label: string, request: LoadRequest): Promise<number> {
  const bytes = await samePage(service, minimal, request);
  const runs: Record<'app' | 'minimal', Run[]> = { app: [], minimal: [] };
  console.log(`history only, ${CONNECTIONS} connections, ${label} (${(bytes / 1024).toFixed(1)} KB), ${THROUGHPUT_SECONDS} s a run`);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, server] of [['minimal', minimal], ['app', service]] as const) {
      const run = await historyOnly(server, request);
      runs[name].push(run);
      console.log(`  round ${round} ${name.padEnd(7)} ${run.rps.toFixed(0).padStart(6)} req/s, p99 ${ms(run.p99)}, ${run.cpuMicrosPerRequest.toFixed(0)} µs server CPU/request`);
    }
  }
  const median = (name: 'app' | 'minimal') => percentile(runs[name].map((r) => r.rps), 50);
  const ratio = median('app') / median('minimal');
  console.log(`  medians: service ${median('app').toFixed(0)} req/s, minimal Koa + jose + better-sqlite3 ${median('minimal').toFixed(0)} req/s: ratio ${ratio.toFixed(2)}`);
  return ratio;
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

/** "NAME=value NAME=value" as an environment. */
function settings(text: string): Record<string, string> {
  return Object.fromEntries(text.split(/\s+/).filter(Boolean).map((pair) => pair.split('=') as [string, string]));
}

function printMixed(label: string, mixed: Awaited<ReturnType<typeof mixedLoad>>): void {
  const { chat, history } = mixed;
  console.log(`  ${label}history p50 ${ms(percentile(history.latencies, 50))} p99 ${ms(percentile(history.latencies, 99))}, ${history.rps.toFixed(0)} req/s (${history.requests}, failed ${history.failures})`);
  console.log(`  ${' '.repeat(label.length)}chat    p50 ${ms(percentile(chat.latencies, 50))} p95 ${ms(percentile(chat.latencies, 95))}, ${chat.rps.toFixed(1)} req/s (${chat.requests}, failed ${chat.failures})`);
  const perSecond = (t: SchedTimes) => `ran ${(t.runMs / SECONDS / 10).toFixed(0)} % of a core, waited runnable for a CPU ${(t.waitMs / SECONDS / 10).toFixed(0)} %` +
    (t.slices > 0 ? ` (${(t.waitMs / t.slices).toFixed(2)} ms a wait)` : '');
  if (mixed.sched) {
    console.log(`    service request thread ${perSecond(mixed.sched.main)}`);
    console.log(`    service other threads  ${perSecond(mixed.sched.others)}`);
  }
  console.log(`    load client            ${perSecond({ ...mixed.client, slices: 0 })}`);
  if (mixed.lag !== undefined) console.log(`    service event loop delay p99 ${ms(mixed.lag)}`);
}

async function main(): Promise<void> {
  buildDist();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-history-load-'));
  const logFile = path.join(dataDir, 'service.log');
  const services: Service[] = [];
  const base = { DATA_DIR: dataDir, MAX_CONNECTIONS_PER_CLIENT: '10000', ...settings(process.env.BENCH_SERVICE_ENV ?? '') };
  const start = async (env: Record<string, string>, name: string) => {
    const service = await startService({ ...base, ...env }, logFile, name);
    services.push(service);
    return service;
  };
  const stop = async (service: Service) => {
    services.splice(services.indexOf(service), 1);
    await stopService(service);
  };
  try {
    // One service ingests for every user; the measured ones start on the same data (as bench/chat-under-load.ts).
    const ingesting = await start({}, 'ingest');
    const users = await prepareUsers(ingesting, USERS);
    await stop(ingesting);
    console.log(`History under load (issue 48): embedded stack, compiled service, ${os.availableParallelism()} cores, load client in its own process` +
      (process.env.BENCH_SERVICE_ENV ? `, service env ${process.env.BENCH_SERVICE_ENV}` : ''));

    const checks: [string, boolean][] = [];
    if (PART !== 'throughput') {
      const variants = (process.env.BENCH_VARIANTS ?? '').split(';').map((v) => v.trim());
      console.log(`mixed, ${USERS} users × (${CLIENTS_PER_USER} askers + ${CLIENTS_PER_USER} history readers${HISTORY_RATE ? `, ${HISTORY_RATE} history req/s in all` : ''}), ${SECONDS} s`);
      for (let round = 1; round <= REPEAT; round++) {
        for (const variant of variants) {
          const service = await start(settings(variant), `mixed-${round}-${variant.replace(/[^A-Za-z0-9=_-]+/g, '_') || 'default'}`);
          const mixed = await mixedLoad(service, users);
          await stop(service);
          printMixed(variants.length > 1 || REPEAT > 1 ? `${variant || 'default'}, round ${round}: ` : '', mixed);
          if (variants.length === 1 && REPEAT === 1) {
            checks.push(['0 failed requests (mixed)', mixed.chat.failures + mixed.history.failures === 0]);
            checks.push([`history p99 ≤ ${TARGET.historyP99Ms} ms (mixed)`, percentile(mixed.history.latencies, 99) <= TARGET.historyP99Ms]);
          }
        }
      }
    }
    if (PART !== 'mixed') {
      const service = await start({}, 'throughput');
      await resetHistories(service, users.slice(0, 1));
      const dbFile = path.join(dataDir, 'doc-chat.sqlite');
      const plain = await plainSession(service, users[0], dbFile);
      const minimal = await startMinimal(dbFile);
      services.push(minimal);
      const answered = await throughput(service, minimal, 'page 0 of 20 answered questions (with their sources)', historyRequest(users[0]));
      const short = await throughput(service, minimal, '20 short messages (bench/http-throughput.ts\'s page)', historyRequest(users[0], plain));
      checks.push([`history req/s ≥ ${TARGET.throughputRatio} of the minimal server's (both pages)`, Math.min(answered, short) >= TARGET.throughputRatio]);
    }
    for (const [what, met] of checks) console.log(`  target ${what}: ${met ? 'met' : 'NOT met'}`);
    if (checks.some(([, met]) => !met)) process.exitCode = 1;
  } finally {
    for (const s of services.reverse()) await stopService(s);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(() => process.exit(), (error) => {
  console.error(error);
  process.exit(1);
});
