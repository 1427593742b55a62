import type { Chunk } from '../../core/domain/model.js';
import { matchesTagFilters } from '../../core/domain/tags.js';
import type { ChunkHit, DocumentTerms, DocumentTermsQuery, IndexQuery, IndexedChunk, JobCopy, LeadingChunksQuery, VectorIndex } from '../../core/ports/vector-index.js';
import { searchWords, withoutPossessive, wordTokens } from '../../core/rag/text.js';
import { cosine } from '../support/vectors.js';

export interface InMemoryVectorIndexOptions {
  /**
   * `lexical` (default): ranks by the query's words: the sum over the query's content words found in a chunk of
   * log(1 + N / df), N and df counted over the chunks the query may see; chunks sharing no word are not returned.
   * `dense`: ranks every chunk the query may see by the cosine of its embedding with the query's; chunks and
   * queries must carry embeddings.
   */
  kind?: 'lexical' | 'dense';
}

interface Entry {
  chunk: Chunk;
  embedding?: number[];
  /** Distinct lower-case word tokens of the text (lexical kind). */
  terms: Set<string>;
}

/** A VectorIndex for core unit tests: behaves as the contract in test/contracts/vector-index.contract.ts says. */
export class InMemoryVectorIndex implements VectorIndex {
  readonly kind: 'lexical' | 'dense';
  private readonly entries = new Map<string, Entry>();

  constructor(options: InMemoryVectorIndexOptions = {}) {
    this.kind = options.kind ?? 'lexical';
  }

  async add(chunks: IndexedChunk[], signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.kind === 'dense') {
      for (const c of chunks) {
        if (!c.embedding || c.embedding.length === 0) {
          throw new Error(`InMemoryVectorIndex(dense).add: chunk ${c.id} has no embedding`);
        }
      }
    }
    for (const c of chunks) {
      const { embedding, ...chunk } = c;
      // Re-adding an id replaces it; delete first so the entry also moves to the end of the insertion order.
      this.entries.delete(c.id);
      this.entries.set(c.id, {
        chunk: copyChunk(chunk),
        embedding: embedding ? [...embedding] : undefined,
        terms: new Set(wordTokens(c.text).map(withoutPossessive)),
      });
    }
  }

  async search(query: IndexQuery): Promise<ChunkHit[]> {
    if (this.kind === 'dense' && !query.embedding) {
      throw new Error('InMemoryVectorIndex(dense).search needs query.embedding: a dense index ranks by the query embedding');
    }
    if (query.limit <= 0) return [];
    const candidates = [...this.entries.values()].filter(
      (e) =>
        e.chunk.sessionId === query.sessionId &&
        matchesTagFilters(e.chunk.tags, query.filters) &&
        (query.jobIds === undefined || query.jobIds.includes(e.chunk.jobId)),
    );
    const scored = this.kind === 'dense' ? this.denseScores(candidates, query.embedding!) : lexicalScores(candidates, query.text);
    // Array.prototype.sort is stable: ties keep insertion order.
    scored.sort((a, b) => b.score - a.score);
    return scored.slice(0, query.limit).map(({ entry, score }) => ({ chunk: copyChunk(entry.chunk), score }));
  }

  /** The lexical kind only, as the port says of lexical indexes: a dense index has no words to count. */
  get documentTerms(): ((query: DocumentTermsQuery) => Promise<DocumentTerms[]>) | undefined {
    return this.kind === 'lexical' ? (query) => this.countTerms(query) : undefined;
  }

  private async countTerms(query: DocumentTermsQuery): Promise<DocumentTerms[]> {
    const terms = searchWords(query.text);
    if (terms.length === 0) return [];
    const documents = new Map<string, DocumentTerms>();
    for (const { chunk, terms: held } of this.entries.values()) {
      if (chunk.sessionId !== query.sessionId || !matchesTagFilters(chunk.tags, query.filters)) continue;
      let document = documents.get(chunk.jobId);
      if (!document) documents.set(chunk.jobId, (document = { jobId: chunk.jobId, chunks: 0, holding: terms.map(() => 0) }));
      document.chunks += 1;
      terms.forEach((t, i) => (document.holding[i] += held.has(t) ? 1 : 0));
    }
    return [...documents.values()];
  }

  async leadingChunks(query: LeadingChunksQuery): Promise<Chunk[]> {
    return [...this.entries.values()]
      .map((e) => e.chunk)
      .filter((c) => c.sessionId === query.sessionId && c.ordinal < query.perJob && matchesTagFilters(c.tags, query.filters))
      .filter((c) => query.jobIds === undefined || query.jobIds.includes(c.jobId))
      .sort((a, b) => (a.jobId < b.jobId ? -1 : a.jobId > b.jobId ? 1 : a.ordinal - b.ordinal))
      .map(copyChunk);
  }

  async deleteByJob(jobId: string, fromOrdinal = 0): Promise<void> {
    for (const [id, e] of this.entries) if (e.chunk.jobId === jobId && e.chunk.ordinal >= fromOrdinal) this.entries.delete(id);
  }

  async deleteBySession(sessionId: string): Promise<void> {
    for (const [id, e] of this.entries) if (e.chunk.sessionId === sessionId) this.entries.delete(id);
  }

  async copyJob(copy: JobCopy): Promise<void> {
    const sources = [...this.entries.values()].filter((e) => e.chunk.jobId === copy.fromJobId);
    for (const { chunk, embedding, terms } of sources) {
      const id = `${copy.toJobId}:${chunk.ordinal}`;
      if (this.entries.has(id)) continue;
      this.entries.set(id, {
        chunk: { ...copyChunk(chunk), id, jobId: copy.toJobId, sessionId: copy.toSessionId },
        embedding: embedding ? [...embedding] : undefined,
        terms,
      });
    }
  }

  async count(filter: { sessionId?: string; jobId?: string }): Promise<number> {
    let n = 0;
    for (const { chunk } of this.entries.values()) {
      if (filter.sessionId !== undefined && chunk.sessionId !== filter.sessionId) continue;
      if (filter.jobId !== undefined && chunk.jobId !== filter.jobId) continue;
      n += 1;
    }
    return n;
  }

  /** Every stored chunk, in insertion order (for assertions). */
  all(): Chunk[] {
    return [...this.entries.values()].map((e) => copyChunk(e.chunk));
  }

  private denseScores(candidates: Entry[], embedding: number[]): { entry: Entry; score: number }[] {
    return candidates.map((entry) => {
      const vector = entry.embedding!;
      if (vector.length !== embedding.length) {
        throw new Error(
          `InMemoryVectorIndex(dense): query has ${embedding.length} dimensions, chunk ${entry.chunk.id} has ${vector.length}`,
        );
      }
      return { entry, score: cosine(vector, embedding) };
    });
  }
}

function lexicalScores(candidates: Entry[], text: string): { entry: Entry; score: number }[] {
  const terms = searchWords(text);
  if (terms.length === 0) return [];
  const df = new Map<string, number>();
  for (const t of terms) df.set(t, candidates.filter((e) => e.terms.has(t)).length);
  const n = candidates.length;
  const scored: { entry: Entry; score: number }[] = [];
  for (const entry of candidates) {
    let score = 0;
    for (const t of terms) if (entry.terms.has(t)) score += Math.log(1 + n / df.get(t)!);
    if (score > 0) scored.push({ entry, score });
  }
  return scored;
}

function copyChunk(chunk: Chunk): Chunk {
  return {
    id: chunk.id,
    sessionId: chunk.sessionId,
    jobId: chunk.jobId,
    filename: chunk.filename,
    page: chunk.page,
    ordinal: chunk.ordinal,
    text: chunk.text,
    tags: { ...chunk.tags },
  };
}
