/**
 * Issue 19 on PostgreSQL: where a history request's time goes, in CPU rather than wall-clock (which other work on a
 * shared machine distorts). One user's session holds the three PDFs of chat-under-load.ts and 20 answered questions;
 * the compiled service is loaded for BENCH_SECONDS (default 15) by 25 history clients alone ("history"), then by 25
 * history + 25 chat clients ("both"). Printed per run: requests and latency, the service process's CPU per request
 * (request thread and answer pool), PostgreSQL's backends' CPU per request, and the statements PostgreSQL spent its
 * time on (pg_stat_statements, loaded in a cluster of the bench's own).
 * BENCH_SHAPES: the runs, in order (default "history,both"). BENCH_ROOTS=<repo>,<repo>: compiled trees taking the runs
 * in turn (an A/B of two builds on the same data, e.g. BENCH_SHAPES=history,history,history,history; both builds must
 * know the same migrations). BENCH_RUN_ENV="A=1 B=2,A=3": settings for the measured services, taking the runs in turn
 * like BENCH_ROOTS (an A/B of two settings on the same data, interleaved so both see the same machine). BENCH_CPU_PROF=<folder>: each measured service runs with node --cpu-prof and leaves its
 * profiles in <folder>/<run number>-<shape>/ (the request thread's is the one ending .0.<seq>.cpuprofile).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { signLocalToken } from '../adapters/local-jwt/local-jwt-verifier.js';
import { CONFIG_VARIABLES } from '../server/config.js';
import { ApiClient } from '../test/support/api-client.js';
import { freePort } from '../test/support/free-port.js';
import { CORPUS_DIR, REPO_ROOT } from '../test/support/paths.js';
import { postgresUnavailableReason, privatePostgresCluster } from '../test/support/postgres-cluster.js';
import { buildDist, COMPILED_SERVER_ARGS, compiledServerEnv } from './compiled-server.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const SECRET = 'pg-history-cost-bench-secret-0123456789abcdef';
const PDFS = ['dmca-summary-1998.pdf', 'irs-i1040nr-2007.pdf', 'federal-register-2020-17221.pdf'];
const QUESTIONS = [
  'What does the DMCA say about circumvention of copyright protection systems?', 'Who must file Form 1040NR?',
  'What is the effective date of the rule?', 'How are online service providers protected from liability?',
  'What income is effectively connected with a U.S. trade or business?', 'Which agency issued the rule?',
  'When is the 1040NR due?', 'What exemptions apply to nonprofit libraries and archives?',
  'How do I claim a tax treaty benefit?', 'What comments did the agency receive?',
];

interface Service { url: string; pid: number; stop(): Promise<void> }

async function startService(root: string, env: Record<string, string>, profileDir?: string): Promise<Service> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [...CONFIG_VARIABLES, 'NODE_OPTIONS']) delete childEnv[name];
  Object.assign(childEnv, env, { PORT: String(port), HOST: '127.0.0.1', AUTH_JWT_SECRET: SECRET, LOG_LEVEL: 'warn' });
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...profile, ...COMPILED_SERVER_ARGS], { cwd: root, env: compiledServerEnv(childEnv), stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  while (!(await fetch(`${url}/api/v1/health`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null) throw new Error(`the service in ${root} exited with ${child.exitCode}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, pid: child.pid!, stop: () => new Promise((resolve) => child.once('exit', resolve).kill()) };
}

/** CPU (user + system, ms) of the processes whose command line passes `match`, from /proc (Linux). */
function cpuMs(match: (pid: string, cmdline: string) => boolean): number {
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!match(pid, fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

/** Shares of the history route's requests the service timed within each bound (its request-duration histogram). */
async function historyWithin(url: string, bounds: number[]): Promise<number[]> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^doc_chat_http_request_duration_seconds_bucket\{(.*)\} (\d+)$/.exec(line);
    if (!match || !match[1].includes('route="/api/v1/chat/history/:sessionId"') || !match[1].includes('status="200"')) continue;
    const le = /le="([^"]+)"/.exec(match[1])![1];
    counts.set(le, (counts.get(le) ?? 0) + Number(match[2]));
  }
  const all = counts.get('+Inf') ?? 0;
  return bounds.map((bound) => (all ? (counts.get(String(bound)) ?? 0) / all : 0));
}

async function main(): Promise<void> {
  const unavailable = postgresUnavailableReason();
  if (unavailable) return console.log(`PostgreSQL history cost: not run (${unavailable})`);
  buildDist();
  const url = await privatePostgresCluster(['shared_preload_libraries=pg_stat_statements']).createDatabase('history_cost');
  const database = new URL(url).pathname.slice(1);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-history-cost-'));
  const stackEnv = { DATABASE_URL: url, DATA_DIR: dataDir, MAX_QUESTIONS_PER_USER: '25' };
  const token = await signLocalToken(SECRET, 'history-user');
  let service = await startService(REPO_ROOT, { ...stackEnv, ANSWER_POOL_THREADS: '0' });
  const client = new ApiClient(service.url, token);
  const sessionId = await client.createSession('three PDFs');
  for (const name of PDFS) {
    const { jobId } = await client.uploadAndIngest(sessionId, name, fs.readFileSync(path.join(CORPUS_DIR, 'pdfs', name)), 'application/pdf');
    const job = await client.waitForJob(jobId, 600_000);
    if (job.status !== 'completed') throw new Error(`ingesting ${name} ended ${job.status}`);
  }
  for (let q = 0; q < 20; q++) await client.ask(sessionId, QUESTIONS[q % QUESTIONS.length]);
  await service.stop();
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const roots = (process.env.BENCH_ROOTS ?? REPO_ROOT).split(',').map((root) => path.resolve(root));
  const runEnvs = (process.env.BENCH_RUN_ENV ?? '').split(',').map((settings) =>
    Object.fromEntries(settings.split(/\s+/).filter(Boolean).map((pair) => pair.split('=') as [string, string])));
  const auth = { authorization: `Bearer ${token}` };
  console.log(`PostgreSQL history cost (issue 19): ${SECONDS} s per run, ${os.availableParallelism()} cores, 25 history clients (+ 25 chat clients in "both")`);
  try {
    for (const [i, shape] of (process.env.BENCH_SHAPES ?? 'history,both').split(',').entries()) {
      const root = roots[i % roots.length];
      const profileDir = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF, `${i + 1}-${shape}`) : undefined;
      const runEnv = runEnvs[i % runEnvs.length];
      service = await startService(root, { ...stackEnv, ...runEnv }, profileDir);
      await fetch(`${service.url}/api/v1/chat/history/${sessionId}?page=0`, { headers: auth });
      await db.query('SELECT pg_stat_statements_reset()');
      const backends = (_: string, cmdline: string) => cmdline.startsWith(`postgres: postgres ${database} `);
      const self = (pid: string) => pid === String(service.pid);
      const [service0, postgres0, bench0] = [cpuMs(self), cpuMs(backends), process.cpuUsage()];
      const loads = [autocannon({ url: `${service.url}/api/v1/chat/history/${sessionId}?page=0`, connections: 25, duration: SECONDS, headers: auth })];
      if (shape === 'both') {
        loads.push(autocannon({
          url: `${service.url}/api/v1/chat/completions`, connections: 25, duration: SECONDS,
          requests: QUESTIONS.map((message) => ({ method: 'POST' as const, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ sessionId, message }) })),
        }));
      }
      const [history, chat] = await Promise.all(loads);
      const [serviceMs, postgresMs] = [cpuMs(self) - service0, cpuMs(backends) - postgres0];
      const benchCpu = process.cpuUsage(bench0);
      const requests = history.requests.total + (chat?.requests.total ?? 0);
      const errors = history.errors + history.non2xx + (chat ? chat.errors + chat.non2xx : 0);
      const settings = Object.entries(runEnv).map(([name, value]) => ` ${name}=${value}`).join('');
      console.log(`${shape} (${path.basename(root)}${settings}): history ${(history.requests.total / SECONDS).toFixed(0)}/s p50 ${history.latency.p50} ms p99 ${history.latency.p99} ms` +
        (chat ? `; chat ${(chat.requests.total / SECONDS).toFixed(1)}/s p99 ${chat.latency.p99} ms` : '') + `; errors ${errors}` +
        `; CPU per request: service ${(serviceMs / requests).toFixed(2)} ms, PostgreSQL ${(postgresMs / requests).toFixed(2)} ms`);
      // The clients' side (autocannon in this process) and the service's own view of the history route's time: where a
      // client-side p99 comes from when the service answered quickly.
      console.log(`  this bench process (the clients): ${((benchCpu.user + benchCpu.system) / 1000 / SECONDS / 10).toFixed(0)} % of a core; ` +
        `history requests the service answered within 10 / 25 / 50 ms: ${(await historyWithin(service.url, [0.01, 0.025, 0.05])).map((share) => `${(100 * share).toFixed(1)} %`).join(' / ')}`);
      const { rows } = await db.query(`
        SELECT calls, total_exec_time, mean_exec_time, left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS query
        FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1) AND calls > 1
        ORDER BY total_exec_time DESC LIMIT 6`, [database]);
      for (const r of rows) {
        console.log(`  ${String(r.calls).padStart(6)} calls ${Number(r.total_exec_time).toFixed(0).padStart(6)} ms in all, ${Number(r.mean_exec_time).toFixed(3).padStart(8)} ms each: ${r.query}`);
      }
      await service.stop();
    }
  } finally {
    await db.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(() => process.exit(), (error) => {
  console.error(error);
  process.exit(1);
});
