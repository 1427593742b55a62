import { UpstreamUnavailableError } from '../../core/domain/errors.js';
import type { ChunkHit, IndexQuery, IndexedChunk, JobCopy } from '../../core/ports/vector-index.js';
import { InMemoryVectorIndex, type InMemoryVectorIndexOptions } from './in-memory-vector-index.js';

/**
 * An InMemoryVectorIndex that can go down like a remote index (Chroma): while `down`, every call throws
 * UpstreamUnavailableError. `goDownAfter` makes it fail in the middle of an add, once it wrote that many more chunks
 * (over one add or several: a batched upsert interrupted by an outage); `beforeAdd` lets a test act while a job is
 * being indexed.
 */
export class FlakyVectorIndex extends InMemoryVectorIndex {
  down = false;
  goDownAfter: number | null = null;
  beforeAdd: (() => Promise<void>) | null = null;

  constructor(options: InMemoryVectorIndexOptions = {}, private readonly dependency = 'vector index') {
    super(options);
  }

  override async add(chunks: IndexedChunk[]): Promise<void> {
    if (this.beforeAdd) await this.beforeAdd();
    this.check();
    if (this.goDownAfter !== null && chunks.length > this.goDownAfter) {
      await super.add(chunks.slice(0, this.goDownAfter));
      this.goDownAfter = null;
      this.down = true;
      this.check();
    }
    if (this.goDownAfter !== null) this.goDownAfter -= chunks.length;
    await super.add(chunks);
  }

  override async search(query: IndexQuery): Promise<ChunkHit[]> {
    this.check();
    return super.search(query);
  }

  override async deleteByJob(jobId: string, fromOrdinal?: number): Promise<void> {
    this.check();
    return super.deleteByJob(jobId, fromOrdinal);
  }

  override async deleteBySession(sessionId: string): Promise<void> {
    this.check();
    return super.deleteBySession(sessionId);
  }

  override async copyJob(copy: JobCopy): Promise<void> {
    this.check();
    return super.copyJob(copy);
  }

  override async count(filter: { sessionId?: string; jobId?: string }): Promise<number> {
    this.check();
    return super.count(filter);
  }

  private check(): void {
    if (this.down) throw new UpstreamUnavailableError(this.dependency, `${this.dependency} did not answer`);
  }
}
