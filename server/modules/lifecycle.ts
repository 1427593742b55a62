/**
 * What the service does with an adapter that starts, stops or can be probed. Each container module registers one
 * Lifecycle per such adapter under TOKENS.Lifecycle; start-up inits them in registration order, shutdown closes them
 * in reverse, and readiness probes every one that has a probe. Nothing else needs to know which adapters exist.
 */
export interface Lifecycle {
  /** The name readiness and logs use, e.g. "database" or "object storage (MinIO)". */
  readonly name: string;
  /** Prepares the dependency (a bucket, a collection); a failure stops the start. */
  init?(): Promise<void>;
  /** Answers when the dependency works; throws when it does not (the message goes to the log only). */
  probe?(): Promise<void>;
  /** Releases what it holds; run at shutdown, after everything registered later has closed. */
  close?(): Promise<void>;
}

/** A Lifecycle for an adapter that exposes any of init/check/close (the adapters' own method names). */
export function lifecycleOf(
  name: string,
  adapter: { init?: () => Promise<void>; check?: () => Promise<void>; close?: () => Promise<void> },
): Lifecycle {
  return {
    name,
    init: adapter.init ? () => adapter.init!() : undefined,
    probe: adapter.check ? () => adapter.check!() : undefined,
    close: adapter.close ? () => adapter.close!() : undefined,
  };
}
