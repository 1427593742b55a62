/**
 * The API process (the server, not its extraction children) while it ingests the long real PDF of issue 18, and
 * after: what it holds (process.memoryUsage() recorded inside it, see memory-trace.ts) idle, at its peak, when the
 * job completes and 60 s later; and the CPU it spends per page (its own threads, not the extraction processes':
 * chunking, the lexical index's inserts, embedding, SQLite writes).
 *
 * BENCH_FILE=<pdf> ingests another file instead. BENCH_HEAP_SNAPSHOTS=1 has the service write a heap snapshot half-way
 * through the document and one 60 s after (into the trace folder). BENCH_CPU_PROF=<folder> runs the service with
 * --cpu-prof and leaves its profile there. BENCH_NODE_ARGS="--flag …" adds Node options to the service's command line
 * (e.g. to compare V8 heap settings). Other settings pass on from this process's environment.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signLocalToken } from '../adapters/local-jwt/local-jwt-verifier.js';
import { ApiClient } from '../test/support/api-client.js';
import { longRealPdf, longRealPdfUnavailable, pageCount } from './long-real-pdf.js';
import { describeSample, memoryTraceArgs, peakSample, readMemoryTrace } from './memory-trace.js';
import { processCpuSeconds, rssKinds, threadCpuSeconds, treePss, treeRssParts } from './process-tree.js';
import { benchNodeArgs, SECRET, sleep, startServer } from './service-bench.js';

const AFTER_MS = 60_000;
const TARGET = { ingestingMb: 200, afterMb: 150 };

async function main(): Promise<void> {
  let file = process.env.BENCH_FILE;
  if (!file) {
    const unavailable = longRealPdfUnavailable();
    if (unavailable) return void console.log(`API process memory: skipped (${unavailable})`);
    file = longRealPdf().file;
  }
  const pages = pageCount(file);
  const traceDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-api-memory-'));
  const trace = path.join(traceDir, 'memory.jsonl');
  const cpuProf = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`, '--cpu-prof-name=api-ingest.cpuprofile'] : [];
  const snapshots = process.env.BENCH_HEAP_SNAPSHOTS === '1';
  const nodeArgs = benchNodeArgs();
  const server = await startServer({}, [...nodeArgs, ...memoryTraceArgs(trace), ...cpuProf]);
  const t0 = Date.now(); // close to the trace's own start: the service started just before
  try {
    await sleep(3_000);
    const idle = treeRssParts(server.pid);
    const idleKinds = rssKinds(server.pid);
    const api = new ApiClient(server.baseUrl, await signLocalToken(SECRET, 'bench-api-memory'));
    const session = await api.createSession('api memory');
    const bytes = fs.readFileSync(file);
    const cpuBefore = processCpuSeconds(server.pid);
    const threadsBefore = threadCpuSeconds(server.pid);
    const ingestFrom = Date.now() - t0;
    const { jobId } = await api.uploadAndIngest(session, path.basename(file), bytes, 'application/pdf');
    let job: any;
    let snapshotTaken = false;
    let peakApiMb = 0;
    for (;;) {
      job = (await api.get(`/api/v1/ingest/${jobId}`)).body.data;
      peakApiMb = Math.max(peakApiMb, treeRssParts(server.pid).root / 1024 / 1024);
      if (job.status === 'completed' || job.status === 'failed') break;
      if (snapshots && !snapshotTaken && job.progress >= 0.5) {
        process.kill(server.pid, 'SIGUSR2');
        snapshotTaken = true;
      }
      await sleep(250);
    }
    const cpuIngest = processCpuSeconds(server.pid) - cpuBefore;
    const threadsAfter = threadCpuSeconds(server.pid);
    const ingestTo = Date.now() - t0;
    const seconds = (ingestTo - ingestFrom) / 1000;
    await sleep(AFTER_MS);
    if (snapshots) {
      process.kill(server.pid, 'SIGUSR2');
      await sleep(5_000);
    }
    const after = treeRssParts(server.pid);
    const afterPss = treePss(server.pid);
    const afterKinds = rssKinds(server.pid);
    const samples = readMemoryTrace(trace);
    const idleSample = peakSample(samples, 0, ingestFrom);
    const peak = peakSample(samples, ingestFrom, ingestTo);
    const end = peakSample(samples, ingestTo - 1_000, ingestTo + 1_000);
    const last = samples.at(-1);
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
    console.log(`\nAPI process while ingesting ${path.basename(file)} (${pages} pages): ${job.status}, ${job.chunks ?? '?'} chunks, ${seconds.toFixed(1)} s${nodeArgs.length ? ` (node ${nodeArgs.join(' ')})` : ''}`);
    console.log(`  idle, before:        ${idleSample ? describeSample(idleSample) : '?'} (tree ${mb(idle.total)} MB)`);
    console.log(`  peak while ingesting: ${peak ? describeSample(peak) : '?'}`);
    console.log(`  at completion:       ${end ? describeSample(end) : '?'}`);
    console.log(`  ${AFTER_MS / 1000} s after:          ${last ? describeSample(last) : '?'} (tree ${mb(after.total)} MB, PSS ${mb(afterPss)} MB)`);
    const kinds = (k: ReturnType<typeof rssKinds>) => `anonymous ${k.anonMb.toFixed(0)} + file-backed ${k.fileMb.toFixed(0)} + shared ${k.shmemMb.toFixed(0)} MB`;
    console.log(`  API process resident memory by kind, idle before: ${kinds(idleKinds)}; ${AFTER_MS / 1000} s after: ${kinds(afterKinds)}`);
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    console.log(`  API process peak RSS while ingesting ${peakApiMb.toFixed(0)} MB (target ≤ ${TARGET.ingestingMb}) ${verdict(peakApiMb <= TARGET.ingestingMb)}`);
    console.log(`  API process RSS ${AFTER_MS / 1000} s after ${mb(after.root)} MB, tree ${mb(after.total)} MB (target ≤ ${TARGET.afterMb}) ${verdict(after.total / 1024 / 1024 <= TARGET.afterMb)}`);
    console.log(`  API process CPU while ingesting: ${cpuIngest.toFixed(1)} s = ${((cpuIngest / pages) * 1000).toFixed(2)} ms per page, ${(pages / cpuIngest).toFixed(0)} pages per CPU-second (all its threads; extraction processes excluded)`);
    // Threads that ended meanwhile (a worker thread stopped when idle) count in the process total only.
    const perThread = [...threadsAfter].map(([name, cpu]) => [name, cpu - (threadsBefore.get(name) ?? 0)] as const).filter(([, cpu]) => cpu >= 0.05);
    const listed = perThread.reduce((sum, [, cpu]) => sum + cpu, 0);
    console.log(`    by thread: ${perThread.map(([name, cpu]) => `${name} ${cpu.toFixed(1)} s`).join(', ')}, ended threads ${Math.max(0, cpuIngest - listed).toFixed(1)} s`);
    console.log(`  trace: ${trace}${snapshots ? ` (heap snapshots in ${traceDir})` : ''}`);
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
