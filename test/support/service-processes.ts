import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { REPO_ROOT } from './paths.js';

/** What the command line of an extraction child process contains (adapters/extraction/extraction-worker*). */
export const EXTRACTION_CHILD = 'extraction-worker';

/** The service as a separate process (`node --import tsx server/main.ts`), e.g. a worker, so it can be SIGKILLed. */
export interface ServiceProcess {
  readonly name: string;
  readonly child: ChildProcess;
  readonly pid: number;
  /** Whether it still runs. */
  readonly running: boolean;
  /** Its stdout and stderr so far (pino's JSON lines), for failure messages. */
  output(): string;
  /** Sends `signal` and resolves with the exit code (null when a signal ended it) once it is gone. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts server/main.ts with `env` (added to this process's) and resolves once start-up is over: the service logs
 * "doc-chat listening" at info level when startService resolved, or "doc-chat worker started" with ROLE=worker (no
 * API). Rejects when the process exits first or `timeoutMs` passes, with its output.
 */
export async function startServiceProcess(name: string, env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-64_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const startedMessage = env.ROLE === 'worker' ? 'doc-chat worker started' : 'doc-chat listening';
  const started = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    const check = () => {
      if (!output.includes(`"msg":"${startedMessage}"`)) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve(true);
    };
    child.stdout!.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  if (!started) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    throw new Error(`${name} did not start within ${timeoutMs} ms (exit ${child.exitCode ?? child.signalCode ?? 'none'}):\n${output.slice(-4000)}`);
  }
  return {
    name,
    child,
    pid: child.pid!,
    get running() {
      return child.exitCode === null && child.signalCode === null;
    },
    output: () => output,
    stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Whether `pid` is a live extraction child process (not gone, not a zombie): checked before killing it by id. */
export function isLiveExtractionChild(pid: number): boolean {
  try {
    const commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return commandLine.includes(EXTRACTION_CHILD) && state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}
