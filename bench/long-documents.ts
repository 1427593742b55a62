/**
 * Issue 18's figures, measured in one run against the real service (compiled, its own process, embedded defaults):
 * a. the long real PDF (FinanceBench filings merged with qpdf, see long-real-pdf.ts): raw pdf-parse on the same file
 *    in a process of its own, then ingest through the service (upload → completed) with pages/s for each successive
 *    1,000 pages (from the job's progress), the last 1,000 pages' rate against the first's, end-to-end time / raw
 *    time, peak RSS of the process tree (server + extraction processes), RSS 60 s after, GET /health p99 while
 *    ingesting vs idle (probes from a process of their own, see HealthProber), and how long the service's event loop
 *    thread waited for a CPU in each phase; then the floor under the health ratio (health-floor.ts): a bare HTTP
 *    server's p99 while the extraction pool alone reads the same file;
 * b. the same filings, each its own upload (all at once, one user): pages/s end to end;
 * c. the generated ~5,000-page text PDF (bench-pdfs.ts) as a second long case, with the same per-1,000-page rates.
 * LONG_BENCH_CASES=real,separate,generated (the default) picks cases. Case a and b are skipped, with the reason printed, where the corpus or qpdf is absent. EXTRACTION_WORKERS (default
 * here 2: a long PDF is read as page ranges by both processes, EXTRACTION_RANGE_PAGES each) and the other settings are
 * passed on to the service from this process's environment.
 * BENCH_NODE_ARGS="--flag …" adds Node options to the service's command line (an A/B of V8 heap settings).
 * Timings are noisy on a shared machine; the ratios compare figures taken in the same run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { signLocalToken } from '../adapters/local-jwt/local-jwt-verifier.js';
import { ApiClient } from '../test/support/api-client.js';
import { textReportPdf } from './bench-pdfs.js';
import { healthFloor, p99Ratio } from './health-floor.js';
import { filingFiles, longRealPdf, longRealPdfUnavailable, pageCount } from './long-real-pdf.js';
import { percentile } from './metrics.js';
import { cpuWait, cpuWaitSince, descendantsCpuSeconds, PeakRssSampler, type CpuWait, processCpuSeconds, treeRssParts } from './process-tree.js';
import { benchNodeArgs, HealthProber, rawPdfParse, SECRET, sleep, startServer, type Server } from './service-bench.js';

const TARGETS = { overRaw: 0.6, separatePagesPerSecond: 150, lastOverFirst: 0.8, peakRssMb: 500, idleAfterMb: 150, healthP99Ratio: 2 };
const WINDOW = 1_000;
/** The job's progress while extracting is 0.05 + 0.85 × (pages read / pages) (RunIngestion). */
const EXTRACTING_FROM = 0.05;
const EXTRACTING_SPAN = 0.85;

interface PageRates {
  /** Pages/s of pages 1-1,000, 1,001-2,000, … (full windows only). */
  windows: number[];
  /** Pages/s of the last 1,000 pages of the document. */
  last: number;
  /** CPU seconds the extraction processes (all descendants of the server) used for each successive 1,000 pages. */
  cpuPerWindow: number[];
}

/**
 * Ingests `file` and follows its job's progress (polled every 200 ms; the service writes it at most every 400 ms) to
 * time each successive 1,000 pages read.
 */
async function ingestTimed(api: ApiClient, serverPid: number, sessionId: string, file: string, pages: number, timeoutMs: number) {
  const bytes = fs.readFileSync(file);
  const t0 = performance.now();
  const { jobId } = await api.uploadAndIngest(sessionId, path.basename(file), bytes, 'application/pdf');
  const reached: number[] = []; // reached[k]: when (k + 1) × 1,000 pages were read
  const cpuAt: number[] = []; // the extraction processes' CPU seconds then
  let extractingAt: number | undefined;
  let lastStartAt: number | undefined;
  let extractedAt: number | undefined;
  let job: any;
  for (;;) {
    job = (await api.get(`/api/v1/ingest/${jobId}`)).body.data;
    const now = performance.now();
    if (job.status === 'completed' || job.status === 'failed') break;
    if (now - t0 > timeoutMs) throw new Error(`${path.basename(file)} not ingested after ${timeoutMs / 1000} s (${job.status}, ${job.progress})`);
    if (job.stage === 'extracting' && job.progress !== undefined) {
      if (extractingAt === undefined) {
        extractingAt = now;
        cpuAt.push(descendantsCpuSeconds(serverPid));
      }
      const read = ((job.progress - EXTRACTING_FROM) / EXTRACTING_SPAN) * pages;
      while (read >= (reached.length + 1) * WINDOW) {
        reached.push(now);
        cpuAt.push(descendantsCpuSeconds(serverPid));
      }
      if (read >= pages - WINDOW) lastStartAt ??= now;
      if (read >= pages - 0.5) extractedAt ??= now;
    } else if (extractingAt !== undefined) extractedAt ??= now; // past extraction (chunking, indexing)
    await sleep(200);
  }
  const seconds = (performance.now() - t0) / 1000;
  extractedAt ??= performance.now();
  const starts = [extractingAt ?? t0, ...reached];
  const windows = reached.map((at, k) => WINDOW / ((at - starts[k]) / 1000));
  const last = lastStartAt === undefined ? NaN : Math.min(WINDOW, pages) / ((extractedAt - lastStartAt) / 1000);
  const cpuPerWindow = cpuAt.slice(1).map((cpu, k) => cpu - cpuAt[k]);
  return { seconds, job, rates: { windows, last, cpuPerWindow } as PageRates };
}

/** The idle probes every case compares with, and what the service's event loop thread waited for a CPU meanwhile. */
interface IdleProbes {
  times: number[];
  wait?: CpuWait;
}

const line = (label: string, value: string, verdict?: boolean) =>
  console.log(`  ${label.padEnd(50)} ${value}${verdict === undefined ? '' : verdict ? '  met' : '  NOT met'}`);

/** One long PDF: raw pdf-parse, then ingest with rates, memory and API latency. */
async function longCase(server: Server, sampler: PeakRssSampler, prober: HealthProber, label: string, file: string, idle: IdleProbes): Promise<void> {
  const pages = pageCount(file);
  const raw = rawPdfParse(file);
  const owner = new ApiClient(server.baseUrl, await signLocalToken(SECRET, `bench-${label.replace(/\W+/g, '-')}`));
  const session = await owner.createSession(label);
  const startRssMb = sampler.reset();
  const serverCpuBefore = processCpuSeconds(server.pid);
  const waitBefore = cpuWait(server.pid);
  const ingesting = ingestTimed(owner, server.pid, session, file, pages, 3_600_000);
  const { times: busyProbes, failures } = await prober.probe({ until: ingesting });
  const { seconds, job, rates } = await ingesting;
  const busyWait = cpuWaitSince(waitBefore, server.pid);
  const serverCpu = processCpuSeconds(server.pid) - serverCpuBefore;
  const peakMb = sampler.reset();
  const parts = sampler.lastPeakParts;
  await sleep(60_000);
  const after = treeRssParts(server.pid);
  const afterMb = after.total / 1024 / 1024;
  // Idle again, with the request path long compiled: the idle figures above were taken from a freshly started service.
  const { times: idleAgain } = await prober.probe({ count: 500 });
  // The same pool reading the same file with no service at all: the tail this machine gives a server doing nothing.
  const floor = await healthFloor(file);
  const idleP99 = percentile(idle.times, 99);
  const busyP99 = percentile(busyProbes, 99);
  const ratio = seconds / raw.seconds;
  const lastOverFirst = rates.last / rates.windows[0];
  console.log(`\n${label}: ${pages} pages, ${(fs.statSync(file).size / 1024 / 1024).toFixed(1)} MB, ${job.chunks ?? '?'} chunks, ${job.status}${job.error ? ` (${job.error})` : ''}`);
  line('raw pdf-parse, one process', `${raw.seconds.toFixed(1)} s (${(raw.pages / raw.seconds).toFixed(1)} pages/s), peak RSS ${raw.peakRssMb.toFixed(0)} MB`);
  line('ingest through the service (upload → completed)', `${seconds.toFixed(1)} s (${(pages / seconds).toFixed(1)} pages/s)`);
  line('  end-to-end time / raw pdf-parse time', `${ratio.toFixed(2)} (target ≤ ${TARGETS.overRaw})`, ratio <= TARGETS.overRaw);
  line('  pages/s per successive 1,000 pages', rates.windows.map((rate) => rate.toFixed(1)).join(', '));
  line('  extraction CPU seconds per successive 1,000 pages', `${rates.cpuPerWindow.map((cpu) => cpu.toFixed(1)).join(', ')} (flat when the cost per page is; immune to other load)`);
  line('  server (API process) CPU while ingesting', `${serverCpu.toFixed(1)} s, ${((serverCpu / pages) * 1000).toFixed(2)} ms per page (its own threads: chunking, indexing, SQLite writes)`);
  line('  last 1,000 pages / first 1,000 pages', `${rates.last.toFixed(1)} / ${(rates.windows[0] ?? NaN).toFixed(1)} pages/s = ${lastOverFirst.toFixed(2)} (target ≥ ${TARGETS.lastOverFirst})`, lastOverFirst >= TARGETS.lastOverFirst);
  line('  peak RSS, server + extraction processes', `${peakMb.toFixed(0)} MB = server ${parts.rootMb.toFixed(0)} + extraction ${parts.descendantsMb.toFixed(0)} (target ≤ ${TARGETS.peakRssMb}; before ${startRssMb.toFixed(0)} MB)`, peakMb <= TARGETS.peakRssMb);
  line('    of which pages mapped from files', `${parts.fileBackedMb.toFixed(0)} MB in ${parts.processes} processes (the node binary and its libraries, mapped by each: one copy in memory)`);
  line('    peak PSS of the tree', `${sampler.lastPeakPssMb.toFixed(0)} MB (shared pages, e.g. the node binary in each process, counted once; sampled every 0.5 s)`);
  line('  RSS 60 s after', `${afterMb.toFixed(0)} MB = server ${(after.root / 1024 / 1024).toFixed(0)} + extraction ${(after.descendants / 1024 / 1024).toFixed(0)} (target ≤ ${TARGETS.idleAfterMb})`, afterMb <= TARGETS.idleAfterMb);
  line('  health p99 idle / while ingesting', `${idleP99.toFixed(1)} / ${busyP99.toFixed(1)} ms, ratio ${(busyP99 / idleP99).toFixed(2)} (target ≤ ${TARGETS.healthP99Ratio}; ${busyProbes.length} probes, ${failures} failed)`, busyP99 <= TARGETS.healthP99Ratio * idleP99);
  // The target compares two tails; the middle of each shows whether the service is slower in general or only now and then.
  const spread = (times: number[]) => [50, 90, 99].map((q) => percentile(times, q).toFixed(1)).join(' / ');
  line('    p50 / p90 / p99 idle; while ingesting', `${spread(idle.times)}; ${spread(busyProbes)} ms (slowest while ingesting ${Math.max(...busyProbes).toFixed(1)} ms); idle again 60 s after ${spread(idleAgain)} ms`);
  line('    floor: a bare HTTP server, the pool alone reading', `p99 ${percentile(floor.idle, 99).toFixed(1)} / ${percentile(floor.reading, 99).toFixed(1)} ms, ratio ${p99Ratio(floor).toFixed(2)}; p50 / p90 / p99 while reading ${spread(floor.reading)} ms (read in ${floor.seconds.toFixed(1)} s, no indexing)`);
  // Whether the tail is the service's work or the wait for a core: the kernel's count for the service's event loop.
  if (idle.wait && busyWait) {
    const perRun = (wait: CpuWait) => `${((wait.waitMs / Math.max(1, wait.runs)) * 1000).toFixed(0)} µs per run (${wait.runs} runs, ${wait.waitMs.toFixed(0)} ms)`;
    line('    event loop thread waiting for a CPU', `idle ${perRun(idle.wait)}; while ingesting ${perRun(busyWait)}`);
  }
}

/** The filings, each its own upload, all sent at once by one user: pages/s from the first upload to the last completed. */
async function separateFilings(server: Server, sampler: PeakRssSampler): Promise<void> {
  const files = filingFiles();
  const pages = files.reduce((sum, file) => sum + pageCount(file), 0);
  const api = new ApiClient(server.baseUrl, await signLocalToken(SECRET, 'bench-separate-filings'));
  const session = await api.createSession('separate filings');
  sampler.reset();
  const t0 = performance.now();
  const jobIds: string[] = [];
  for (const file of files) jobIds.push((await api.uploadAndIngest(session, path.basename(file), fs.readFileSync(file), 'application/pdf')).jobId);
  const jobs = await Promise.all(jobIds.map((id) => api.waitForJob(id, 3_600_000)));
  const seconds = (performance.now() - t0) / 1000;
  const peakMb = sampler.reset();
  const failed = jobs.filter((job) => job.status !== 'completed');
  const rate = pages / seconds;
  console.log(`\nseparate filings: ${files.length} uploads, ${pages} pages${failed.length ? `, ${failed.length} not completed: ${failed.map((job) => job.error).join('; ')}` : ''}`);
  line('  upload → all completed', `${seconds.toFixed(1)} s, ${rate.toFixed(1)} pages/s (target ≥ ${TARGETS.separatePagesPerSecond}), peak RSS ${peakMb.toFixed(0)} MB`, rate >= TARGETS.separatePagesPerSecond);
}

async function main(): Promise<void> {
  const unavailable = longRealPdfUnavailable();
  const realPdf = unavailable ? undefined : longRealPdf();
  const generated = await textReportPdf(5_000);
  // Two extraction processes unless told otherwise: a long PDF is read as page ranges by both at once.
  process.env.EXTRACTION_WORKERS ??= '2';
  const server = await startServer({}, benchNodeArgs());
  const sampler = new PeakRssSampler(server.pid);
  const prober = HealthProber.start(server.baseUrl);
  try {
    const waitBefore = cpuWait(server.pid);
    const idle: IdleProbes = { times: (await prober.probe({ count: 500 })).times };
    idle.wait = cpuWaitSince(waitBefore, server.pid);
    console.log(`\nlong documents benchmark (service in its own process, EXTRACTION_WORKERS=${process.env.EXTRACTION_WORKERS ?? 'default'}; shared machine: noisy)`);
    const cases = (process.env.LONG_BENCH_CASES ?? 'real,separate,generated').split(',');
    if (realPdf) {
      if (cases.includes('real')) await longCase(server, sampler, prober, `long real PDF (${realPdf.filings.length} FinanceBench filings, then the tune ones again, merged)`, realPdf.file, idle);
      if (cases.includes('separate')) await separateFilings(server, sampler);
    } else console.log(`\nlong real PDF and separate filings: skipped (${unavailable})`);
    if (cases.includes('generated')) await longCase(server, sampler, prober, 'generated text PDF', generated, idle);
  } finally {
    prober.stop();
    sampler.stop();
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
