/**
 * The service under load, as bench/chat-under-load.ts and bench/history-under-load.ts run it: compiled, in its own
 * process, on data prepared through the API (each user's session holding three real PDFs, and 20 answered questions).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { signLocalToken } from '../adapters/local-jwt/local-jwt-verifier.js';
import { CONFIG_VARIABLES } from '../server/config.js';
import { ApiClient } from '../test/support/api-client.js';
import { freePort } from '../test/support/free-port.js';
import { CORPUS_DIR, REPO_ROOT } from '../test/support/paths.js';
import { COMPILED_SERVER_ARGS, compiledServerEnv } from './compiled-server.js';
import type { Service } from './service-probes.js';
import { benchNodeArgs } from './service-bench.js';

/** The services' AUTH_JWT_SECRET: the users' tokens are signed with it. */
export const SECRET = 'chat-under-load-bench-secret-0123456789abcdef';
export const PDFS = ['dmca-summary-1998.pdf', 'irs-i1040nr-2007.pdf', 'federal-register-2020-17221.pdf'];
export const QUESTIONS = [
  'What does the DMCA say about circumvention of copyright protection systems?',
  'Who must file Form 1040NR?',
  'What is the effective date of the rule?',
  'How are online service providers protected from liability?',
  'What income is effectively connected with a U.S. trade or business?',
  'Which agency issued the rule?',
  'When is the 1040NR due?',
  'What exemptions apply to nonprofit libraries and archives?',
  'How do I claim a tax treaty benefit?',
  'What comments did the agency receive?',
];

export interface User { id: string; token: string; sessionId: string }

/** Plain node, no loader flags or service settings inherited from this process. */
export function serviceEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [...CONFIG_VARIABLES, 'NODE_OPTIONS']) delete env[name];
  return Object.assign(env, extra);
}

export async function startService(env: Record<string, string>, logFile: string, profileName: string): Promise<Service> {
  const port = await freePort();
  const log = fs.openSync(logFile, 'a');
  // A folder per service, default file names: a fixed --cpu-prof-name is shared by every thread, so the answer pool's
  // workers overwrote the request thread's profile.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF, profileName)}`] : [];
  const nodeArgs = benchNodeArgs();
  const child = spawn(process.execPath, [...profile, ...nodeArgs, ...COMPILED_SERVER_ARGS], {
    cwd: REPO_ROOT, env: compiledServerEnv(serviceEnv({ ...env, PORT: String(port), HOST: '127.0.0.1', AUTH_JWT_SECRET: SECRET })), stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  // A service that dies mid-run (a native crash) must fail the bench loudly, not leave it waiting on nothing.
  child.once('exit', (code, signal) => {
    if (stopping.has(child)) return;
    console.error(`the service exited unexpectedly (code ${code}, signal ${signal}); its log: ${logFile}`);
    process.exit(1);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (!(await fetch(`${url}/api/v1/health`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} (log: ${logFile})`);
    if (Date.now() > deadline) throw new Error('the service did not answer within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, process: child };
}

const stopping = new WeakSet<ChildProcess>();

export async function stopService(service: Service): Promise<void> {
  stopping.add(service.process);
  service.process.kill('SIGTERM');
  if (service.process.exitCode === null) await new Promise((resolve) => service.process.once('exit', resolve));
}

/**
 * The call again after a dropped connection (undici reusing a keep-alive socket the server closed meanwhile: a race
 * that a loaded machine makes likely); other failures are thrown at once. Only for the setup, never the measurement.
 */
export async function retrying<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= 3 || !(error instanceof TypeError && error.message === 'fetch failed')) throw error;
    }
  }
}

/** Each user: a session holding the three PDFs, and 20 answered questions (the history page is full; JIT warmed). */
export async function prepareUsers(service: Service, count: number): Promise<User[]> {
  const users: User[] = [];
  for (let i = 0; i < count; i++) {
    const id = `load-user-${i + 1}`;
    const token = await signLocalToken(SECRET, id);
    const client = new ApiClient(service.url, token);
    const sessionId = await retrying(() => client.createSession(`three PDFs of ${id}`));
    const jobs = await Promise.all(PDFS.map(async (name) =>
      (await retrying(() => client.uploadAndIngest(sessionId, name, fs.readFileSync(path.join(CORPUS_DIR, 'pdfs', name)), 'application/pdf'))).jobId));
    for (const jobId of jobs) {
      const job = await retrying(() => client.waitForJob(jobId, 600_000));
      if (job.status !== 'completed') throw new Error(`ingesting for ${id} ended ${job.status}: ${JSON.stringify(job)}`);
    }
    await warmUp(client, sessionId);
    users.push({ id, token, sessionId });
  }
  return users;
}

/** 20 answered questions: the history's page 0 is full, the service's code warmed. */
export async function warmUp(client: ApiClient, sessionId: string): Promise<void> {
  for (let q = 0; q < 20; q++) {
    const res = await retrying(() => client.ask(sessionId, QUESTIONS[q % QUESTIONS.length]));
    if (res.status !== 200) throw new Error(`warm-up question answered ${res.status}`);
  }
}

/**
 * Each user's history back to the 20 warm-up questions before a run. A history request counts the session's messages,
 * which costs more the more there are (0.07 ms for 20 messages, 0.3 ms for 10,000 on this machine): without this, each
 * run would start with every message the runs before it stored, and AFTER, measured last, would pay for BEFORE's.
 */
export async function resetHistories(service: Service, users: User[]): Promise<void> {
  for (const user of users) {
    const cleared = await retrying(() => fetch(`${service.url}/api/v1/chat/${user.sessionId}`, { method: 'DELETE', headers: { authorization: `Bearer ${user.token}` } }));
    if (cleared.status !== 204) throw new Error(`clearing the history answered ${cleared.status}`);
    await warmUp(new ApiClient(service.url, user.token), user.sessionId);
  }
}
