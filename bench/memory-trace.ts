/**
 * What the service process holds over time, recorded from inside it: a bench starts the service with
 * memoryTraceArgs(file) and the service appends one JSON line per interval with process.memoryUsage() and its thread
 * count. rss − (heapTotal + external) is native memory outside V8 (malloc arenas of worker threads, SQLite's page
 * caches, code). SIGUSR2 then writes a heap snapshot into the trace file's folder (Node's --heapsnapshot-signal).
 */
import fs from 'node:fs';
import path from 'node:path';

export interface MemorySample {
  /** Milliseconds since the trace started. */
  t: number;
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  threads: number;
  /** V8's heap spaces (new_space, old_space, large_object_space, …): committed bytes of each. */
  spaces: Record<string, number>;
}

/**
 * The probe, plain JavaScript loaded with --import into the compiled service: its timer is unref'd and it writes
 * synchronously (a few dozen bytes a second), so it neither keeps the process alive nor reorders its work.
 */
function probeSource(file: string, intervalMs: number): string {
  return `import fs from 'node:fs';
import v8 from 'node:v8';
const file = ${JSON.stringify(file)};
const t0 = Date.now();
const threads = () => Number(/^Threads:\\s+(\\d+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
setInterval(() => {
  const m = process.memoryUsage();
  fs.appendFileSync(file, JSON.stringify({ t: Date.now() - t0, rss: m.rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, threads: threads(), spaces: Object.fromEntries(v8.getHeapSpaceStatistics().map((space) => [space.space_name, space.space_size])) }) + '\\n');
}, ${intervalMs}).unref();
`;
}

/** Node arguments that make the service record its memory to `file` every `intervalMs` (and take heap snapshots on SIGUSR2). */
export function memoryTraceArgs(file: string, intervalMs = 500): string[] {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '');
  const probe = `${file}.probe.mjs`;
  fs.writeFileSync(probe, probeSource(file, intervalMs));
  return [`--import=${probe}`, '--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${path.dirname(file)}`];
}

export function readMemoryTrace(file: string): MemorySample[] {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as MemorySample);
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

/** One sample as "rss 180 = heap 60/75 + external 12 (buffers 3) + native 93 MB, 11 threads". */
export function describeSample(s: MemorySample): string {
  const native = s.rss - s.heapTotal - s.external;
  return `rss ${mb(s.rss)} = V8 heap ${mb(s.heapUsed)} used / ${mb(s.heapTotal)} + external ${mb(s.external)} (array buffers ${mb(s.arrayBuffers)}) + native ${mb(native)} MB, ${s.threads} threads`;
}

/** The sample of highest RSS in [from, to) ms of the trace, if any. */
export function peakSample(samples: MemorySample[], from = 0, to = Infinity): MemorySample | undefined {
  let peak: MemorySample | undefined;
  for (const s of samples) if (s.t >= from && s.t < to && (!peak || s.rss > peak.rss)) peak = s;
  return peak;
}
