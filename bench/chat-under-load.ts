/**
 * Issue 19: do questions hold up everyone else? The compiled service (embedded stack, or BENCH_STACK=postgres for
 * records and the lexical index in PostgreSQL) holds three real PDFs (the DMCA summary, the IRS 1040-NR instructions, a
 * Federal Register issue) in each user's session. autocannon then loads it for BENCH_SECONDS (default 30) with chat
 * clients (JSON answers, questions about the three documents, in a loop) and as many history clients (page 0 of the
 * same sessions), in two shapes:
 *   - one user: 25 chat + 25 history clients (MAX_QUESTIONS_PER_USER=25, so the per-user cap does not refuse them);
 *   - five users, each with 5 chat + 5 history clients (default cap): each user's chat p99, and the max/min ratio.
 * Each shape runs BEFORE (ANSWER_POOL_THREADS=0: answering on the request thread, as before the pool) and AFTER (the
 * pool at its default size), on the same data. Printed: errors, history p50/p99, chat req/s and p50/p99.
 * A third shape, not a target of the issue, holds the history load at a fixed rate (open loop, BENCH_HISTORY_RATE req/s,
 * default 100: twice what BEFORE serves): closed-loop history clients answered in 15 ms send 20-30 times the requests
 * they send when answered in 400 ms, so the closed shapes compare chat throughput under very different total loads.
 * Targets (issue 19): 0 errors, history p99 ≤ 50 ms, chat req/s AFTER ≥ BEFORE, per-user chat p99 max/min ≤ 1.5.
 * BENCH_POOL_THREADS: the AFTER pool size (default the service's: cores − 1, at least 2); BENCH_THREAD_TASKS: its
 * ANSWER_THREAD_TASKS, BENCH_THREAD_NICE its ANSWER_THREAD_NICE (default the service's). BENCH_FAIR_SECONDS: the length
 * of the five-user runs (default twice BENCH_SECONDS).
 * BENCH_CPU_PROF=<folder>: every service runs with node --cpu-prof and leaves its profiles in a folder of its own there
 * (BEFORE-1user/, …): one file per thread, the request thread's named CPU.<date>.<time>.<pid>.0.<seq>.cpuprofile.
 * BENCH_SEARCH_POOL_SIZE, BENCH_DATABASE_POOL_SIZE, BENCH_READ_POOL_SIZE: DATABASE_SEARCH_POOL_SIZE, DATABASE_POOL_SIZE
 * and DATABASE_READ_POOL_SIZE of the PostgreSQL stack's services (default the service's). BENCH_AFTER_ONLY=1: only the AFTER runs (to compare settings quickly).
 * BENCH_NODE_ARGS="--flag …": Node options added to every service's command line (e.g. `--heap-growing-percent=0`: V8's own heap growth).
 * On PostgreSQL, each run also prints how long queries waited for a pool connection, per pool (from /metrics).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildDist } from './compiled-server.js';
import { connectionWaits, handOffWait, threadCpu, type Service } from './service-probes.js';
import { prepareUsers, QUESTIONS, resetHistories, startService, stopService, type User } from './load-service.js';
import { defaultPoolThreads } from '../adapters/answer-pool/answer-pool.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
/**
 * The five-user shape runs longer: its target compares each user's chat p99, the p99 of only ~100-150 questions a user
 * in 20 s, which moved between 1.1 and 3.9 from run to run; twice as many samples steady it.
 */
const FAIR_SECONDS = Number(process.env.BENCH_FAIR_SECONDS ?? 2 * SECONDS);
const STACK = process.env.BENCH_STACK === 'postgres' ? 'postgres' : 'embedded';
const HISTORY_RATE = Number(process.env.BENCH_HISTORY_RATE ?? 100);
const TARGET = { historyP99Ms: 50, fairness: 1.5 };

interface Load { errors: number; requests: number; rps: number; p50: number; p99: number }

function chatLoad(service: Service, user: User, connections: number, duration = SECONDS) {
  return autocannon({
    url: `${service.url}/api/v1/chat/completions`, connections, duration,
    requests: QUESTIONS.map((message) => ({
      method: 'POST' as const,
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: user.sessionId, message }),
    })),
  });
}

/** Closed loop (each client asks again when answered), or open loop at `rate` requests/s over all its clients. */
function historyLoad(service: Service, user: User, connections: number, rate?: number, duration = SECONDS) {
  return autocannon({
    url: `${service.url}/api/v1/chat/history/${user.sessionId}?page=0`, connections, duration,
    headers: { authorization: `Bearer ${user.token}` },
    ...(rate ? { overallRate: rate } : {}),
  });
}

function summary(result: autocannon.Result): Load {
  return {
    errors: result.errors + result.timeouts + result.non2xx,
    requests: result.requests.total,
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

/** Every user's chat and history clients at once; per user and in total. */
async function loadAll(service: Service, users: User[], clientsPerUser: number, historyRate?: number, duration = SECONDS) {
  await resetHistories(service, users);
  const handOffBefore = await handOffWait(service);
  const cpuBefore = threadCpu(service);
  const results = await Promise.all(users.flatMap((user) => [chatLoad(service, user, clientsPerUser, duration), historyLoad(service, user, clientsPerUser, historyRate, duration)]));
  const cpuAfter = threadCpu(service);
  const handOffAfter = await handOffWait(service);
  const handOff = handOffBefore === undefined || handOffAfter === undefined ? undefined : (handOffAfter - handOffBefore) / duration;
  const cpu = cpuBefore && cpuAfter
    ? { requestThread: (cpuAfter.requestThread - cpuBefore.requestThread) / duration, others: (cpuAfter.others - cpuBefore.others) / duration }
    : undefined;
  const waits = await connectionWaits(service);
  const perUser = users.map((user, i) => ({ user: user.id, chat: summary(results[2 * i]), history: summary(results[2 * i + 1]) }));
  const merged = (kind: 'chat' | 'history') => {
    const all = results.filter((_, i) => (kind === 'chat' ? i % 2 === 0 : i % 2 === 1));
    // Percentiles of the whole population need the merged histogram: take them from the largest load when one user,
    // else report the worst user's (conservative).
    const loads = all.map(summary);
    return {
      errors: loads.reduce((n, l) => n + l.errors, 0), requests: loads.reduce((n, l) => n + l.requests, 0),
      rps: loads.reduce((n, l) => n + l.rps, 0), p50: Math.max(...loads.map((l) => l.p50)), p99: Math.max(...loads.map((l) => l.p99)),
    };
  };
  return { perUser, chat: merged('chat'), history: merged('history'), waits, cpu, handOff };
}

const ms = (v: number) => `${v.toFixed(0)} ms`;
function line(label: string, run: Awaited<ReturnType<typeof loadAll>>): string {
  const { chat, history } = run;
  return `  ${label.padEnd(7)} errors ${String(chat.errors + history.errors).padStart(4)}  history p50 ${ms(history.p50).padStart(7)} p99 ${ms(history.p99).padStart(7)}` +
    `  chat ${chat.rps.toFixed(1).padStart(6)} req/s p50 ${ms(chat.p50).padStart(7)} p99 ${ms(chat.p99).padStart(7)}  (${chat.requests} chat, ${history.requests} history)` +
    (run.cpu ? `\n          service CPU: request thread ${(100 * run.cpu.requestThread).toFixed(0)} % of a core, its other threads ${(100 * run.cpu.others).toFixed(0)} %` : '') +
    (run.handOff !== undefined ? `; answer threads idle waiting for the request thread to hand them a waiting question: ${(100 * run.handOff).toFixed(0)} % of a thread` : '') +
    (run.waits ? `\n          ${run.waits}` : '');
}

async function main(): Promise<void> {
  try {
    buildDist();
  } catch (error) {
    // tsc emits dist/ even when it reports type errors; they are printed above and must be fixed, but the emitted code is what runs.
    console.warn(`WARNING: ${(error as Error).message}; measuring the dist/ it emitted anyway`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-chat-load-'));
  const logFile = path.join(dataDir, 'service.log');
  const stackEnv: Record<string, string> = { DATA_DIR: dataDir };
  if (process.env.BENCH_THREAD_TASKS) stackEnv.ANSWER_THREAD_TASKS = process.env.BENCH_THREAD_TASKS;
  if (process.env.BENCH_THREAD_NICE) stackEnv.ANSWER_THREAD_NICE = process.env.BENCH_THREAD_NICE;
  if (STACK === 'postgres') {
    const { postgresUnavailableReason, sharedPostgresCluster } = await import('../test/support/postgres-cluster.js');
    const unavailable = postgresUnavailableReason();
    if (unavailable) {
      console.log(`Chat under load, PostgreSQL stack: not run (${unavailable})`);
      return;
    }
    stackEnv.DATABASE_URL = await sharedPostgresCluster().createDatabase('chat_load');
    if (process.env.BENCH_SEARCH_POOL_SIZE) stackEnv.DATABASE_SEARCH_POOL_SIZE = process.env.BENCH_SEARCH_POOL_SIZE;
    if (process.env.BENCH_DATABASE_POOL_SIZE) stackEnv.DATABASE_POOL_SIZE = process.env.BENCH_DATABASE_POOL_SIZE;
    if (process.env.BENCH_READ_POOL_SIZE) stackEnv.DATABASE_READ_POOL_SIZE = process.env.BENCH_READ_POOL_SIZE;
  }
  // The service's default (cores − 1, at least 2) unless BENCH_POOL_THREADS says otherwise (to compare sizes).
  const poolOn = process.env.BENCH_POOL_THREADS ?? String(defaultPoolThreads());
  let service: Service | undefined;
  try {
    // One service ingests for every user; the measured ones start on the same data.
    service = await startService({ ...stackEnv, ANSWER_POOL_THREADS: '0' }, logFile, 'ingest');
    const users = await prepareUsers(service, 5);
    await stopService(service);
    console.log(`Chat under load (issue 19): ${STACK} stack, ${SECONDS} s per run, ${os.availableParallelism()} cores, ` +
      `three PDFs per session, compiled service; BEFORE = ANSWER_POOL_THREADS=0, AFTER = ${poolOn} pool thread(s)`);
    const runs: Record<string, Awaited<ReturnType<typeof loadAll>>> = {};
    const labels = process.env.BENCH_AFTER_ONLY === '1' ? ['AFTER'] : ['BEFORE', 'AFTER'];
    for (const [label, threads] of ([['BEFORE', '0'], ['AFTER', poolOn]] as const).filter(([l]) => labels.includes(l))) {
      service = await startService({ ...stackEnv, ANSWER_POOL_THREADS: threads, MAX_QUESTIONS_PER_USER: '25' }, logFile, `${label}-1user`);
      runs[`${label} 1`] = await loadAll(service, users.slice(0, 1), 25);
      runs[`${label} rate`] = await loadAll(service, users.slice(0, 1), 25, HISTORY_RATE);
      await stopService(service);
      service = await startService({ ...stackEnv, ANSWER_POOL_THREADS: threads }, logFile, `${label}-5users`);
      runs[`${label} 5`] = await loadAll(service, users, 5, undefined, FAIR_SECONDS);
      await stopService(service);
      service = undefined;
    }
    console.log('one user, 25 chat + 25 history clients');
    for (const label of labels) console.log(line(label, runs[`${label} 1`]));
    console.log(`one user, 25 chat clients + 25 history clients at ${HISTORY_RATE} req/s together (open loop; not an issue target)`);
    for (const label of labels) console.log(line(label, runs[`${label} rate`]));
    console.log(`five users, each 5 chat + 5 history clients, ${FAIR_SECONDS} s (history and chat p50/p99: the worst user's)`);
    for (const label of labels) {
      const run = runs[`${label} 5`];
      console.log(line(label, run));
      const p99s = run.perUser.map((u) => u.chat.p99);
      console.log(`          chat p99 per user ${p99s.map((v) => ms(v)).join(', ')}; max/min ${(Math.max(...p99s) / Math.min(...p99s)).toFixed(2)}` +
        `; chat answers per user ${run.perUser.map((u) => u.chat.requests).join(', ')}`);
    }
    const after1 = runs['AFTER 1'];
    const after5 = runs['AFTER 5'];
    const p99s = after5.perUser.map((u) => u.chat.p99);
    const checks: [string, boolean][] = [
      ['0 errors (AFTER)', after1.chat.errors + after1.history.errors + after5.chat.errors + after5.history.errors === 0],
      [`history p99 ≤ ${TARGET.historyP99Ms} ms (AFTER, both shapes)`, Math.max(after1.history.p99, after5.history.p99) <= TARGET.historyP99Ms],
      // Issue 19 asks it of the embedded stack only. On PostgreSQL the closed-loop history clients, answered 30-50 times
      // faster with the pool, take the CPU that the database and the answers share: compared below at equal load.
      ...(runs['BEFORE 1'] && STACK === 'embedded' ? [['chat req/s AFTER ≥ BEFORE (one user)', after1.chat.rps >= runs['BEFORE 1'].chat.rps] as [string, boolean]] : []),
      [`per-user chat p99 max/min ≤ ${TARGET.fairness} (AFTER)`, Math.max(...p99s) / Math.min(...p99s) <= TARGET.fairness],
    ];
    for (const [what, met] of checks) console.log(`  target ${what}: ${met ? 'met' : 'NOT met'}`);
    if (STACK !== 'embedded' && runs['BEFORE 1']) {
      const rps = (key: string) => runs[key].chat.rps.toFixed(1);
      const historyPerSecond = (key: string) => runs[key].history.rps.toFixed(0);
      console.log(`  not a target here: chat req/s one user ${rps('BEFORE 1')} → ${rps('AFTER 1')} while history went ` +
        `${historyPerSecond('BEFORE 1')} → ${historyPerSecond('AFTER 1')} req/s; at equal history load (open loop) ${rps('BEFORE rate')} → ${rps('AFTER rate')}`);
    }
    if (checks.some(([, met]) => !met)) process.exitCode = 1;
  } finally {
    if (service) await stopService(service);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(() => process.exit(), (error) => {
  console.error(error);
  process.exit(1);
});
