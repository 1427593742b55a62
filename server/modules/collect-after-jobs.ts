import type { Logger } from '../../core/ports/logger.js';

/** Quiet time after the last ingest job before the collection: a burst of uploads is collected once, at its end. */
const COLLECT_AFTER_MS = 5_000;

/**
 * One full garbage collection once ingestion has been quiet for a few seconds. A long document leaves tens of MB of
 * garbage behind (its pages' text, the extraction's messages, the document's bytes) in a heap that grew while it was
 * read; a server with little else to do may then allocate too little for V8 to collect it for many minutes, and its
 * resident memory stays at its ingestion peak. The pause (~30-100 ms here) happens once, when no job runs.
 *
 * `collect` is V8's gc(), present only when Node runs with --expose-gc (as `npm start` and the image do): without it,
 * nothing is done and V8's own heuristics decide.
 */
export class CollectAfterJobs {
  private running = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Collections done so far (tests, diagnostics). */
  collections = 0;

  constructor(
    private readonly collect: (() => void) | undefined = exposedGc(),
    private readonly logger?: Logger,
    private readonly quietMs = COLLECT_AFTER_MS,
  ) {}

  /** Runs one job's work, counting it as ingestion; the last job to end arms the collection. */
  async around<T>(work: () => Promise<T>): Promise<T> {
    this.running++;
    clearTimeout(this.timer);
    try {
      return await work();
    } finally {
      if (--this.running === 0) this.arm();
    }
  }

  private arm(): void {
    const collect = this.collect;
    if (!collect) return;
    this.timer = setTimeout(() => {
      if (this.running > 0) return;
      const started = performance.now();
      collect();
      this.collections++;
      this.logger?.info('garbage collected after ingestion', { ms: Math.round(performance.now() - started), rssMb: Math.round(process.memoryUsage.rss() / 1048576) });
    }, this.quietMs);
    this.timer.unref(); // never keeps a finished program alive
  }
}

/** V8's gc() and the options it takes (--expose-gc). */
type ExposedGc = (options?: { type?: 'major' | 'minor'; execution?: 'sync' | 'async'; flavor?: 'regular' | 'last-resort' }) => void;

/**
 * V8's gc() when the process was started with --expose-gc, else undefined; as V8's last-resort collection, which also
 * gives back the pages it freed. A plain gc() leaves them in V8's page pool, still resident: in Node 24 the server
 * stayed at its ingestion peak although its heap had shrunk (issue 18: after the long PDF, V8 heap 151 → 77 MB and RSS
 * unchanged at 275 MB; a script whose heap shrank from 283 to 4 MB stayed at 312 MB RSS with gc(), 60 MB with this).
 * The pool would be given back by V8's memory reducer, which did not run in a minute of an idle server. A last-resort
 * collection repeats the full collection until nothing more is freed (two or three, ~30-60 ms in all).
 */
export function exposedGc(): (() => void) | undefined {
  const gc = (globalThis as { gc?: ExposedGc }).gc;
  return typeof gc === 'function' ? () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' }) : undefined;
}
