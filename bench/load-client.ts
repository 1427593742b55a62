/**
 * The load client of bench/history-under-load.ts, in a process of its own as a real client would be: the bench sends
 * it a plan (IPC), it runs every load of the plan at once with autocannon (closed loop: a connection sends its next
 * request when answered) and sends back each load's response times. Run by plain node (Node strips the types), so no
 * TypeScript loader runs beside the load; it imports nothing of the project.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadPlan {
  baseUrl: string;
  seconds: number;
  /** `rate`: requests/s over the load's connections (open loop); none: closed loop. */
  loads: { label: string; connections: number; requests: LoadRequest[]; rate?: number }[];
}

export interface LoadOutcome {
  label: string;
  /** Response times of the 2xx answers, in ms. */
  latencies: number[];
  /** Answers that were not 2xx, connection errors and timeouts. */
  failures: number;
  statuses: Record<string, number>;
  seconds: number;
}

export interface ClientReply {
  outcomes: LoadOutcome[];
  /** The client's own main thread during the loads: CPU time, and time it waited runnable for a CPU. */
  clientRunMs: number;
  clientWaitMs: number;
}

function run(baseUrl: string, seconds: number, load: LoadPlan['loads'][number]): Promise<LoadOutcome> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  return new Promise((resolve, reject) => {
    const instance = autocannon({
      url: baseUrl, connections: load.connections, duration: seconds,
      requests: load.requests,
      ...(load.rate ? { overallRate: load.rate } : {}),
    }, (error, result) => {
      if (error) return reject(error);
      resolve({
        label: load.label, latencies, statuses, seconds: result.duration,
        failures: result.errors + result.timeouts + result.non2xx,
      });
    });
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status >= 200 && status < 300) latencies.push(ms);
    });
  });
}

/** This process's main thread: ms run and ms waited runnable for a CPU (Linux schedstat; zeros elsewhere). */
function schedMs(): [number, number] {
  try {
    const [run, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ').map(Number);
    return [run / 1e6, wait / 1e6];
  } catch {
    return [0, 0];
  }
}

process.once('message', async (plan: LoadPlan) => {
  const before = schedMs();
  const outcomes = await Promise.all(plan.loads.map((load) => run(plan.baseUrl, plan.seconds, load)));
  const after = schedMs();
  const reply: ClientReply = { outcomes, clientRunMs: after[0] - before[0], clientWaitMs: after[1] - before[1] };
  process.send!(reply, () => process.exit(0));
});
