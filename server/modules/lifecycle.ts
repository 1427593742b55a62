/**
 * What the service does with an adapter that starts, stops or can be probed. Each module registers one Lifecycle per
 * such adapter under TOKENS.Lifecycle, written against the adapter's own methods (no probing for optional ones);
 * start-up inits them in registration order, shutdown closes them in reverse, readiness probes every one with a probe.
 */
export interface Lifecycle {
  /** The name readiness and logs use, e.g. "database" or "object storage (S3)". */
  readonly name: string;
  /** Prepares the dependency (a bucket, a collection, a queue's workers); a failure stops the start. */
  init?(): Promise<void>;
  /** Answers when the dependency works; throws when it does not (the message goes to the log only). */
  probe?(): Promise<void>;
  /** Readiness when the probe fails: 'unavailable' (default, 503) or 'degraded' (200: the service still answers). */
  readonly whenDown?: 'unavailable' | 'degraded';
  /** Releases what it holds; run at shutdown, after everything registered later has closed. */
  close?(): Promise<void>;
}

/** The ingest queue as the service drives it (TOKENS.QueueRunner): started with the service, drained at shutdown. */
export interface QueueRunner {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves when no job is waiting or running (tests and benchmarks wait for it). */
  whenIdle(): Promise<void>;
}
