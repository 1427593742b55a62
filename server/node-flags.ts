/**
 * Node options the service runs with: `npm start` and the Docker image pass them, and the benchmarks start the
 * service the same way (test/architecture/package-manifest.test.ts keeps the three in step). Started otherwise (the
 * `doc-chat serve` command, an embedding program), pass them yourself, e.g. NODE_OPTIONS for `doc-chat serve`.
 * - --max-semi-space-size=8 (MB): V8 grows the young generation up to 64 MB per semi-space on a machine with this
 *   much memory; while a long document was ingested that alone was 128 MB of the server's ~320 MB, held afterwards.
 *   8 MB semi-spaces cost a few more minor collections (measured: a few percent of the server's ingestion CPU).
 * - --expose-gc: the server collects garbage once after ingestion has been quiet (CollectAfterJobs), so that its
 *   memory falls back to idle instead of staying at the ingestion peak until V8 gets round to it.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--expose-gc'];
