import os from 'node:os';
import type BetterSqlite3 from 'better-sqlite3';
import type { Chunk } from '../../core/domain/model.js';
import type { ChunkHit, IndexQuery, IndexedChunk, JobCopy, LeadingChunksQuery, VectorIndex } from '../../core/ports/vector-index.js';
import { toChunk, toChunkRow, type ChunkRow } from '../kysely/chunk-rows.js';
import { CHUNK_COLUMNS, chunkRowWriter, copyChunkRows } from './chunk-rows.js';
import type { ChunkVectorsTable, SqliteDatabase } from './database.js';
import { leadingChunkRows } from './leading-chunks.js';
import { jobIdSql, tagFilterSql } from './tag-filter-sql.js';

/** Ids per `IN (…)` lookup when the winners' chunk rows are read. */
const LOOKUP_BATCH = 500;
const LITTLE_ENDIAN = os.endianness() === 'LE';

/**
 * The embedded dense index: one L2-normalised Float32 (little-endian) vector per chunk in `chunk_vectors`, searched
 * by brute force: the session's vectors are streamed from SQLite, each scored by a dot product with the normalised
 * query, the best `limit` kept in a heap. Exact, no ANN structure; measured on a 2-core machine with 768 dimensions:
 * ~60 ms for 10k vectors, ~310 ms for 50k (reading the rows from SQLite is most of it), memory bounded by streaming.
 *
 * Where the chunk itself lives: `chunk_vectors` holds only what filtering needs (session, job, institution), so the
 * chunk's text and metadata come from the `chunks` table, the same rows SqliteFtsIndex keeps (same ids). To work
 * alone as well as next to SqliteFtsIndex, this index treats `chunks` as a chunk store shared by the two:
 * - `add` writes the chunk row too, unless an identical row is already there (SqliteFtsIndex wrote it); a different
 *   row is replaced with DELETE + INSERT, the way SqliteFtsIndex does it, so the FTS triggers stay right;
 * - `deleteByJob` / `deleteBySession` remove the vectors and the chunk rows of that job / session. Both are applied
 *   to every index by the core (run-ingestion drops a job's chunks from each index before re-adding them, delete-session
 *   deletes from each), so removing rows the lexical index also reads never leaves the two indexes disagreeing;
 * - `search` and `count` go by `chunk_vectors`; a vector whose chunk row is gone is skipped in results.
 * Giving `chunk_vectors` its own copy of the chunk's fields (a migration) would decouple the two indexes entirely.
 */
export class SqliteDenseIndex implements VectorIndex {
  readonly kind = 'dense' as const;

  private readonly statements: {
    selectChunk: BetterSqlite3.Statement<[string], ChunkRow>;
    writeChunk: ReturnType<typeof chunkRowWriter>;
    upsertVector: BetterSqlite3.Statement<[ChunkVectorsTable]>;
    deleteJob: BetterSqlite3.Statement<[{ job: string; from: number }]>;
    deleteJobChunks: BetterSqlite3.Statement<[{ job: string; from: number }]>;
    deleteSession: BetterSqlite3.Statement<[string]>;
    deleteSessionChunks: BetterSqlite3.Statement<[string]>;
  };

  constructor(private readonly database: SqliteDatabase) {
    const raw = database.raw;
    this.statements = {
      selectChunk: raw.prepare(
        `SELECT ${CHUNK_COLUMNS} FROM chunks WHERE id = ?`,
      ),
      writeChunk: chunkRowWriter(raw),
      upsertVector: raw.prepare(
        `INSERT INTO chunk_vectors (chunk_id, session_id, job_id, institution, dimensions, vector)
         VALUES (@chunk_id, @session_id, @job_id, @institution, @dimensions, @vector)
         ON CONFLICT (chunk_id) DO UPDATE SET session_id = excluded.session_id, job_id = excluded.job_id,
           institution = excluded.institution, dimensions = excluded.dimensions, vector = excluded.vector`,
      ),
      // chunk_vectors has no ordinal: a vector stays when its chunk row is there and before `from` (a vector without
      // its row, which the lexical index may have deleted first, goes too).
      deleteJob: raw.prepare(
        'DELETE FROM chunk_vectors WHERE job_id = @job AND chunk_id NOT IN (SELECT id FROM chunks WHERE job_id = @job AND ordinal < @from)',
      ),
      deleteJobChunks: raw.prepare('DELETE FROM chunks WHERE job_id = @job AND ordinal >= @from'),
      deleteSession: raw.prepare('DELETE FROM chunk_vectors WHERE session_id = ?'),
      deleteSessionChunks: raw.prepare('DELETE FROM chunks WHERE session_id = ?'),
    };
  }

  async add(chunks: IndexedChunk[], signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (chunks.length === 0) return;
    // Validate everything before writing anything.
    const vectors = chunks.map((c) => toBlob(c));
    const { selectChunk, writeChunk, upsertVector } = this.statements;
    // One transaction: a document's chunks become visible together, and a crash leaves none of them. IMMEDIATE: it
    // reads (is the row there already?) before it writes, and a deferred transaction that must then upgrade its read
    // to a write while the chunk writer thread holds the lock fails at once with SQLITE_BUSY, the busy timeout unused
    // (two documents ingested at once with EMBEDDED_DENSE=on). Taking the write lock first waits like any write.
    this.database.raw.transaction(() => {
      chunks.forEach((c, i) => {
        const row = toChunkRow(c);
        const institution = c.tags.institution ?? null;
        const existing = selectChunk.get(c.id);
        if (!existing || !sameRow(existing, row)) writeChunk(row, institution);
        upsertVector.run({
          chunk_id: c.id,
          session_id: c.sessionId,
          job_id: c.jobId,
          institution,
          dimensions: vectors[i].dimensions,
          vector: vectors[i].blob,
        });
      });
    }).immediate();
  }

  async search(query: IndexQuery): Promise<ChunkHit[]> {
    if (!query.embedding) {
      throw new Error('SqliteDenseIndex.search needs query.embedding: a dense index ranks by the query embedding');
    }
    const q = normalized(query.embedding, 'the query embedding');
    // A zero query vector ranks nothing; vectors of another dimension (another model) are not comparable: skipped.
    if (query.limit < 1 || !q || query.jobIds?.length === 0) return [];
    const dimensions = q.length;

    // Tags live on the chunk row: joined only when the query filters on them.
    const tags = tagFilterSql(query.filters, 'c');
    const jobs = jobIdSql(query.jobIds, 'v');
    const join = tags.sql ? 'JOIN chunks c ON c.id = v.chunk_id' : '';
    const rows = this.database.raw
      .prepare(
        `SELECT v.chunk_id, v.vector FROM chunk_vectors v ${join}
         WHERE v.session_id = @session AND v.dimensions = @dimensions ${tags.sql} ${jobs.sql}`,
      )
      .raw(true)
      .iterate({ ...tags.params, ...jobs.params, session: query.sessionId, dimensions }) as IterableIterator<[string, Buffer]>;

    // Streamed: only the ids stay in memory, not every vector of the session.
    const ids: string[] = [];
    const top = new TopK(Math.floor(query.limit));
    const scratch = new Float32Array(dimensions);
    for (const [id, blob] of rows) {
      const v = asFloat32(blob, scratch);
      let dot = 0;
      for (let i = 0; i < dimensions; i++) dot += q[i] * v[i];
      top.offer(dot, ids.length);
      ids.push(id);
    }
    const winners = top.sorted();
    if (winners.length === 0) return [];

    const byId = this.loadChunks(winners.map((w) => ids[w.item]));
    const hits: ChunkHit[] = [];
    for (const w of winners) {
      const chunk = byId.get(ids[w.item]);
      // A vector whose chunk row is gone (removed through SqliteFtsIndex alone) is not a hit.
      if (chunk) hits.push({ chunk, score: w.score });
    }
    return hits;
  }

  async leadingChunks(query: LeadingChunksQuery): Promise<Chunk[]> {
    return leadingChunkRows(this.database.raw, query, { withVectors: true }).map(toChunk);
  }

  async deleteByJob(jobId: string, fromOrdinal = 0): Promise<void> {
    const { deleteJob, deleteJobChunks } = this.statements;
    this.database.raw.transaction(() => {
      deleteJob.run({ job: jobId, from: fromOrdinal });
      deleteJobChunks.run({ job: jobId, from: fromOrdinal });
    })();
  }

  async deleteBySession(sessionId: string): Promise<void> {
    const { deleteSession, deleteSessionChunks } = this.statements;
    this.database.raw.transaction(() => {
      deleteSession.run(sessionId);
      deleteSessionChunks.run(sessionId);
    })();
  }

  /** The vectors and (unless the lexical index copied them already) the chunk rows, in one transaction. */
  async copyJob(copy: JobCopy): Promise<void> {
    const raw = this.database.raw;
    raw.transaction(() => {
      copyChunkRows(raw, copy);
      raw
        .prepare(
          `INSERT OR IGNORE INTO chunk_vectors (chunk_id, session_id, job_id, institution, dimensions, vector)
           SELECT @to || ':' || c.ordinal, @session, @to, v.institution, v.dimensions, v.vector
           FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id WHERE v.job_id = @from`,
        )
        .run({ from: copy.fromJobId, to: copy.toJobId, session: copy.toSessionId });
    }).immediate();
  }

  async count(filter: { sessionId?: string; jobId?: string }): Promise<number> {
    // Built per filter (not `? IS NULL OR …`) so SQLite can use the session / job indexes.
    const conditions: string[] = [];
    const params: Record<string, string> = {};
    if (filter.sessionId !== undefined) {
      conditions.push('session_id = @sessionId');
      params.sessionId = filter.sessionId;
    }
    if (filter.jobId !== undefined) {
      conditions.push('job_id = @jobId');
      params.jobId = filter.jobId;
    }
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const row = this.database.raw.prepare(`SELECT count(*) AS n FROM chunk_vectors ${where}`).get(params) as { n: number };
    return row.n;
  }

  private loadChunks(ids: string[]): Map<string, Chunk> {
    const byId = new Map<string, Chunk>();
    for (let i = 0; i < ids.length; i += LOOKUP_BATCH) {
      const batch = ids.slice(i, i + LOOKUP_BATCH);
      const rows = this.database.raw
        .prepare(
          `SELECT ${CHUNK_COLUMNS} FROM chunks
           WHERE id IN (${batch.map(() => '?').join(', ')})`,
        )
        .all(...batch) as ChunkRow[];
      for (const row of rows) byId.set(row.id, toChunk(row));
    }
    return byId;
  }
}

/** The chunk's embedding, L2-normalised, as a Float32 little-endian blob. Throws on a missing or unusable one. */
function toBlob(chunk: IndexedChunk): { dimensions: number; blob: Buffer } {
  if (!chunk.embedding || chunk.embedding.length === 0) {
    throw new Error(`SqliteDenseIndex.add: chunk ${chunk.id} has no embedding (a dense index needs one per chunk)`);
  }
  const unit = normalized(chunk.embedding, `the embedding of chunk ${chunk.id}`);
  const dimensions = chunk.embedding.length;
  // A zero vector cannot be normalised: stored as zeros, it scores 0 against every query.
  if (!unit) return { dimensions, blob: Buffer.alloc(dimensions * 4) };
  if (LITTLE_ENDIAN) return { dimensions, blob: Buffer.from(new Float32Array(unit).buffer) };
  const blob = Buffer.alloc(dimensions * 4);
  for (let i = 0; i < dimensions; i++) blob.writeFloatLE(unit[i], i * 4);
  return { dimensions, blob };
}

/** The vector scaled to length 1, or null for a zero vector. Throws on NaN / infinite components. */
function normalized(vector: number[], what: string): Float64Array | null {
  let norm = 0;
  for (const v of vector) {
    if (!Number.isFinite(v)) throw new Error(`SqliteDenseIndex: ${what} contains a non-finite number`);
    norm += v * v;
  }
  if (norm === 0) return null;
  const scale = 1 / Math.sqrt(norm);
  const out = new Float64Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = vector[i] * scale;
  return out;
}

/** A Float32 view of a stored vector: zero-copy when the blob is 4-byte aligned on a little-endian machine. */
function asFloat32(blob: Buffer, scratch: Float32Array): Float32Array {
  if (LITTLE_ENDIAN && blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, scratch.length);
  for (let i = 0; i < scratch.length; i++) scratch[i] = blob.readFloatLE(i * 4);
  return scratch;
}

function sameRow(a: ChunkRow, b: ChunkRow): boolean {
  return (
    a.session_id === b.session_id &&
    a.job_id === b.job_id &&
    a.filename === b.filename &&
    a.page === b.page &&
    a.ordinal === b.ordinal &&
    a.text === b.text &&
    a.tags_json === b.tags_json
  );
}

/** The k best (score, item) pairs seen, in a binary min-heap on score. */
class TopK {
  private scores: Float64Array;
  private items: Int32Array;
  private size = 0;

  constructor(private readonly k: number) {
    // Grown on demand: a huge limit must not allocate up front.
    const initial = Math.max(1, Math.min(k, 1024));
    this.scores = new Float64Array(initial);
    this.items = new Int32Array(initial);
  }

  offer(score: number, item: number): void {
    if (this.size < this.k) {
      if (this.size === this.scores.length) this.grow();
      let i = this.size++;
      // Sift up.
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (this.scores[parent] <= score) break;
        this.scores[i] = this.scores[parent];
        this.items[i] = this.items[parent];
        i = parent;
      }
      this.scores[i] = score;
      this.items[i] = item;
      return;
    }
    if (score <= this.scores[0]) return;
    // Replace the minimum and sift down.
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const child = right < this.size && this.scores[right] < this.scores[left] ? right : left;
      if (this.scores[child] >= score) break;
      this.scores[i] = this.scores[child];
      this.items[i] = this.items[child];
      i = child;
    }
    this.scores[i] = score;
    this.items[i] = item;
  }

  private grow(): void {
    const capacity = Math.min(this.k, this.scores.length * 2);
    const scores = new Float64Array(capacity);
    const items = new Int32Array(capacity);
    scores.set(this.scores);
    items.set(this.items);
    this.scores = scores;
    this.items = items;
  }

  /** Best first; equal scores in the order the items were offered. */
  sorted(): { score: number; item: number }[] {
    const out: { score: number; item: number }[] = [];
    for (let i = 0; i < this.size; i++) out.push({ score: this.scores[i], item: this.items[i] });
    return out.sort((a, b) => b.score - a.score || a.item - b.item);
  }
}
