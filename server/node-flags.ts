import v8 from 'node:v8';

/**
 * Node options the service runs with: `npm start` and the Docker image pass them, and the benchmarks start the
 * service the same way (test/architecture/package-manifest.test.ts keeps the three in step), with SERVICE_MALLOC_ENV. Started otherwise (the
 * `doc-chat serve` command, an embedding program), pass them yourself, e.g. NODE_OPTIONS for `doc-chat serve`.
 * - --max-semi-space-size=8 (MB): V8 grows the young generation up to 64 MB per semi-space on a machine with this
 *   much memory; while a long document was ingested that alone was 128 MB of the server's ~320 MB, held afterwards.
 *   8 MB semi-spaces cost a few more minor collections (measured: a few percent of the server's ingestion CPU).
 * - --expose-gc: the server collects garbage once after ingestion has been quiet (CollectAfterJobs), so that its
 *   memory falls back to idle instead of staying at the ingestion peak until V8 gets round to it.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--expose-gc'];

/**
 * glibc malloc settings the service runs with (environment variables: read by the C library when the process starts,
 * so `npm start` and the image set them, and the benchmarks; a value already in the environment wins). At most 2
 * malloc arenas instead of up to 8 per core, freed memory above 128 KiB given back to the system (trimmed from the
 * heap's top; blocks of 128 KiB and more mmap'd, unmapped when freed). Issue 18, API process after ingesting the
 * 4,557-page PDF, 60 s after, with the last-resort collection (CollectAfterJobs): anonymous memory 96 MB without, 73 MB
 * with (its idle level): RSS 159 → 136 MB. Started otherwise, set them yourself; other C libraries (musl) ignore them.
 * Extraction processes get the same from the server (EXTRACTION_MALLOC_ENV) however it was started.
 */
export const SERVICE_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_TRIM_THRESHOLD_: '131072',
  MALLOC_MMAP_THRESHOLD_: '131072',
};

/**
 * How far V8 lets the old generation grow past what survived the last full collection before it marks again, in
 * percent: 50 (×1.5) instead of V8's up to ×4 when collections are quick. While issue 18's 4,557-page PDF was
 * ingested, what its pages and chunks left behind (promoted from the young generation, dead soon after) piled up to a
 * 125 MB heap of which ~35 MB lived: the server held 221-233 MB resident at the peak, 162-189 MB with ×1.5 (eight to
 * ten runs each, same hour), for the same ingestion time, health probe latency and chat throughput under load.
 */
export const SERVICE_HEAP_GROWING_PERCENT = 50;

/**
 * Sets SERVICE_HEAP_GROWING_PERCENT for this process, unless its command line sets --heap-growing-percent itself.
 * Called when `npm start`, the image or `doc-chat serve` start the service (serveFromEnvironment); set at run time
 * rather than among SERVICE_NODE_FLAGS because Node refuses this V8 option in NODE_OPTIONS. A program that builds the
 * service with createServer() keeps its own V8 settings unless it calls this (exported by doc-chat/server). V8 reads
 * the setting each time it sizes the old generation, so it applies from the next collection on. Returns whether it
 * was set.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((arg) => arg.startsWith('--heap-growing-percent') || arg.startsWith('--heap_growing_percent'))) return false;
  v8.setFlagsFromString(`--heap-growing-percent=${SERVICE_HEAP_GROWING_PERCENT}`);
  return true;
}
