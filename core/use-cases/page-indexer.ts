import type { Chunk, ExtractedPage, IngestCheckpoint, IngestJob } from '../domain/model.js';
import type { Embedder } from '../ports/embedder.js';
import type { IndexedChunk, VectorIndex } from '../ports/vector-index.js';
import { pageChunker, type ChunkingOptions, type DraftChunk, type PageChunker } from '../rag/chunking.js';

/** Chunks embedded per call to the embedder. */
const EMBED_BATCH = 64;
/** Chunks collected before they are embedded and written to the indexes. */
const INDEX_BATCH = 512;
/** The event loop gets a turn after this much work: a long document must not hold other users' requests. */
const TURN_MS = 2;
/** What is chunked is written and recorded as a checkpoint at least this often: a run cut short loses at most this. */
export const CHECKPOINT_MS = 1000;

/** A checkpoint without its run (the caller knows which run it is). */
export type PageCheckpoint = Omit<IngestCheckpoint, 'run'>;

export interface PageIndexerDeps {
  indexes: VectorIndex[];
  embedder?: Embedder;
  chunking: ChunkingOptions;
  /** Where an earlier run of the job got to: its chunks stay, and chunking goes on after its last page. */
  from?: IngestCheckpoint;
  /** Told, in order, each time the pages so far are in every index (at least every checkpointMs while pages come). */
  onCheckpoint?: (checkpoint: PageCheckpoint) => Promise<void>;
  /** Default CHECKPOINT_MS. */
  checkpointMs?: number;
}

/**
 * Chunks, embeds and indexes a document's pages as the reader hands them over, so that on a long document this work
 * overlaps extraction instead of following it. Steps run one after the other on a single chain; the first failure
 * (or the signal) stops the chain, and finish() reports it. Chunk ids derive from the job and ordinal, and each index
 * first drops what an earlier run of the job left past its checkpoint (all of it without one), so a run that stops
 * half-way leaves nothing a later run would duplicate, and what it recorded in a checkpoint is not done again.
 */
export class PageIndexer {
  private readonly chunker: PageChunker;
  private chain: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | undefined;
  private pending: IndexedChunk[] = [];
  private lastTurn = performance.now();
  /** None yet: the first page indexed is recorded at once (a long document's first pages come after a long read). */
  private lastCheckpoint = -Infinity;
  /** The last page chunked (its chunks pending or written). */
  private lastPage: number;
  /** Pages handed over so far (in this run). */
  pagesSeen = 0;
  /** Chunks in every index so far, an earlier run's included. */
  chunksIndexed: number;
  /** Pages skipped for the OCR page limit so far, an earlier run's included. */
  ocrSkippedPages: number;
  /** Checkpoints recorded by this run. */
  checkpoints = 0;

  constructor(
    private readonly job: IngestJob,
    private readonly deps: PageIndexerDeps,
    private readonly signal: AbortSignal,
    /** Told of the first failure at once (e.g. to stop reading a document whose chunks cannot be stored). */
    private readonly onFailure: (error: unknown) => void = () => {},
  ) {
    const { from } = deps;
    this.chunker = pageChunker(deps.chunking, from && { ordinal: from.chunks, section: from.section });
    this.lastPage = from?.pages ?? 0;
    this.chunksIndexed = from?.chunks ?? 0;
    this.ocrSkippedPages = from?.ocrSkippedPages ?? 0;
    this.then(async () => {
      for (const index of deps.indexes) await index.deleteByJob(job.id, from?.chunks);
    });
  }

  /** Takes pages in order (each once); returns at once, the work is queued. */
  push(pages: ExtractedPage[]): void {
    this.pagesSeen += pages.length;
    this.then(async () => {
      for (const page of pages) {
        await this.turn();
        if (page.method === 'ocr-skipped') {
          this.ocrSkippedPages++;
          this.lastPage = page.page;
          continue;
        }
        for (const draft of this.chunker(page)) this.pending.push(this.toChunk(draft));
        this.lastPage = page.page;
        if (this.pending.length >= INDEX_BATCH || performance.now() - this.lastCheckpoint >= (this.deps.checkpointMs ?? CHECKPOINT_MS)) await this.checkpoint();
      }
    });
  }

  /** Writes what is left once every page was pushed; throws the first failure. Resolves to the chunk count. */
  async finish(): Promise<number> {
    this.then(() => this.flush());
    await this.settled();
    if (this.failure) throw this.failure.error;
    return this.chunksIndexed;
  }

  /** The first failure, if a step failed. */
  get error(): unknown {
    return this.failure?.error;
  }

  /** Resolves once no step is running or queued (whatever their outcome): after it nothing more is written. */
  async settled(): Promise<void> {
    for (let chain = this.chain; ; chain = this.chain) {
      await chain;
      if (chain === this.chain) return;
    }
  }

  private then(step: () => Promise<void>): void {
    this.chain = this.chain.then(async () => {
      if (this.failure) return;
      try {
        this.signal.throwIfAborted();
        await step();
      } catch (error) {
        this.failure = { error };
        if (!this.signal.aborted) this.onFailure(error);
      }
    });
  }

  /** Writes what is pending, then records that every page so far is indexed. */
  private async checkpoint(): Promise<void> {
    await this.flush();
    this.lastCheckpoint = performance.now();
    const { onCheckpoint } = this.deps;
    if (!onCheckpoint) return;
    const { ordinal, section } = this.chunker.position();
    await onCheckpoint({ pages: this.lastPage, chunks: ordinal, ocrSkippedPages: this.ocrSkippedPages, section });
    this.checkpoints++;
  }

  private async flush(): Promise<void> {
    const chunks = this.pending;
    this.pending = [];
    if (chunks.length === 0) return;
    if (this.deps.embedder) {
      for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
        this.signal.throwIfAborted();
        const batch = chunks.slice(i, i + EMBED_BATCH);
        const vectors = await this.deps.embedder.embedDocuments(batch.map((c) => c.text));
        batch.forEach((c, j) => (c.embedding = vectors[j]));
      }
    }
    for (const index of this.deps.indexes) {
      await index.add(chunks, this.signal);
    }
    this.chunksIndexed += chunks.length;
  }

  private async turn(): Promise<void> {
    if (performance.now() - this.lastTurn < TURN_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.lastTurn = performance.now();
  }

  private toChunk(draft: DraftChunk): Chunk {
    const { job } = this;
    return {
      id: `${job.id}:${draft.ordinal}`,
      sessionId: job.sessionId,
      jobId: job.id,
      filename: job.filename,
      page: draft.page,
      ordinal: draft.ordinal,
      text: draft.text,
      tags: job.tags,
    };
  }
}
