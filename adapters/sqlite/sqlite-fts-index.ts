import type { Chunk } from '../../core/domain/model.js';
import type { ChunkHit, DocumentTerms, DocumentTermsQuery, IndexQuery, IndexedChunk, JobCopy, LeadingChunksQuery, VectorIndex } from '../../core/ports/vector-index.js';
import { searchWords, termKey } from '../../core/rag/text.js';
import { toChunk, toChunkRow, type ChunkRow } from '../kysely/chunk-rows.js';
import { CHUNK_COLUMNS, chunkRowWriter, copyChunkRows } from './chunk-rows.js';
import type { SqliteDatabase, SqliteReader } from './database.js';
import { leadingChunkRows } from './leading-chunks.js';
import { jobIdSql, tagFilterSql } from './tag-filter-sql.js';

interface ScoredChunkRow extends ChunkRow {
  score: number;
}

/** Chunks written per transaction (a few milliseconds each). */
const WRITE_BATCH = 20;

/** Most distinct query terms sent to FTS5: long pasted questions would otherwise make every query slow. */
const MAX_QUERY_TERMS = 32;

/**
 * The embedded lexical index: chunk rows in `chunks`, their text in the FTS5 table `chunks_fts` (porter stemming,
 * diacritics folded), ranked by BM25 over the session (ln(1 + …) weights, as PostgreSQL's). Queries are the question's
 * content words, so no word is required. FTS5's bm25() weighs a word by how rare it is in the whole store, which let other
 * users' documents reorder a session's hits (and so tell whether they hold a word): each word is ranked on its own,
 * FTS5's weight divided out and the session's multiplied in. What stays of the store is FTS5's average chunk length
 * in the length normalization, which says nothing about anyone's words.
 */
export class SqliteFtsIndex implements VectorIndex {
  readonly kind = 'lexical' as const;

  /** A read-only connection (openSqliteReader) serves search and leadingChunks only. */
  constructor(private readonly database: SqliteDatabase | SqliteReader) {}

  async add(chunks: IndexedChunk[], signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const chunkWriter = 'chunkWriter' in this.database ? this.database.chunkWriter : undefined;
    if (chunkWriter) {
      for (let i = 0; i < chunks.length; i += WRITE_BATCH) {
        const rows = chunks.slice(i, i + WRITE_BATCH).map((c) => ({ ...toChunkRow(c), institution: c.tags.institution ?? null }));
        if (!(await chunkWriter.write(rows, signal))) signal?.throwIfAborted();
      }
      signal?.throwIfAborted();
      return;
    }
    const write = chunkRowWriter(this.database.raw);
    const writeBatch = this.database.raw.transaction((batch: IndexedChunk[]) => {
      for (const c of batch) write(toChunkRow(c), c.tags.institution ?? null);
    });
    // A transaction per batch, and a turn of the event loop between batches: a 5,000-page report's 15,000 chunks in one
    // synchronous transaction held every request for seconds. Chunks of an unfinished job are never cited (answers use
    // completed jobs only), and a job run again first deletes what an earlier run left, so partial batches are harmless.
    for (let i = 0; i < chunks.length; i += WRITE_BATCH) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
      writeBatch(chunks.slice(i, i + WRITE_BATCH));
    }
  }

  async search(query: IndexQuery): Promise<ChunkHit[]> {
    // One term per stem ("fee" and "fees" are one word to FTS5): each term adds its score once.
    const terms = quoted([...new Map(searchWords(query.text).map((w) => [termKey(w), w])).values()]);
    if (terms.length === 0 || query.limit <= 0 || query.jobIds?.length === 0) return [];
    const raw = this.database.raw;
    const scope = sessionScope(query.sessionId);
    const tags = tagFilterSql(query.filters, 'c');
    const jobs = jobIdSql(query.jobIds, 'c');
    const params: Record<string, string | number> = { ...tags.params, ...jobs.params, session: query.sessionId, limit: query.limit };
    terms.forEach((term, i) => {
      params[`store_${i}`] = `text : ${term}`;
      params[`session_${i}`] = `scope : "${scope}" AND text : ${term}`;
    });
    const storeCounts = raw.prepare(
      `SELECT (SELECT sum(chunks) FROM chunk_counts) AS stored, (SELECT chunks FROM chunk_counts WHERE session_id = @session) AS session,
        ${terms.map((_, i) => `(SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH @store_${i}) AS store_${i}`).join(', ')}`,
    );
    // Each word's matches in the session, scored by bm25() with FTS5's weight divided out; the session's weight, from
    // how many of its chunks hold the word, multiplied in. A word's weight counts the whole session, whatever the tags
    // or documents asked for (`wanted`), as FTS5 counted the store: counted among the narrowed chunks (as PostgreSQL's
    // index counts them), 2,843 of the SQuAD training articles' 3,351 questions were answered, against 2,928.
    // CROSS JOIN keeps the matches the outer loop: with several words the planner would rather scan every session's
    // chunks and probe the matches (66 ms against 3 for an 8-word question, 84,402 chunks stored). Chunk rows are read
    // for the best `limit` only. One read transaction: the counts and the ranking see the same rows while chunks are
    // being written.
    const rows = raw.transaction(() => {
      const n = storeCounts.get(params) as Record<string, number | null>;
      terms.forEach((_, i) => (params[`store_weight_${i}`] = storeIdf(n.stored ?? 0, n[`store_${i}`] ?? 0)));
      params.chunks = n.session ?? 0;
      return raw
        .prepare(
          `WITH matches(word, rowid, score) AS MATERIALIZED (${terms
            .map((_, i) => `SELECT ${i}, rowid, -bm25(chunks_fts, 1.0, 0.0) / @store_weight_${i} FROM chunks_fts WHERE chunks_fts MATCH @session_${i}`)
            .join(' UNION ALL ')}),
           session_matches(word, rowid, score, wanted) AS MATERIALIZED (
             SELECT m.word, m.rowid, m.score, (TRUE ${tags.sql} ${jobs.sql})
             FROM matches m CROSS JOIN chunks c ON c.rowid = m.rowid WHERE c.session_id = @session),
           weights(word, weight) AS MATERIALIZED (
             SELECT word, ${SESSION_IDF_SQL} FROM session_matches GROUP BY word),
           best(rowid, score) AS MATERIALIZED (
             SELECT s.rowid, sum(s.score * w.weight) FROM session_matches s JOIN weights w USING (word)
             WHERE s.wanted GROUP BY s.rowid ORDER BY 2 DESC, s.rowid LIMIT @limit)
           SELECT ${CHUNK_COLUMNS.split(', ').map((c) => `c.${c}`).join(', ')}, b.score
           FROM best b CROSS JOIN chunks c ON c.rowid = b.rowid ORDER BY b.score DESC, b.rowid`,
        )
        .all(params) as ScoredChunkRow[];
    })();
    return rows.map((row) => ({ chunk: toChunk(row), score: row.score }));
  }

  /**
   * A count per document and word: each chunk's document read once from the session's rows (an index of session and
   * job when no tag filter asks for the row), then each word's chunks from the full-text index alone, within the
   * session's scope: 14 ms a question (median) on a session of 17,840 chunks (30 filings), 18 with a join per word.
   */
  async documentTerms(query: DocumentTermsQuery): Promise<DocumentTerms[]> {
    const terms = matchTerms(query.text);
    if (terms.length === 0) return [];
    const tags = tagFilterSql(query.filters, 'c');
    const rows = this.database.raw
      .prepare(`SELECT c.rowid, c.job_id FROM chunks c WHERE c.session_id = @session ${tags.sql}`)
      .raw(true)
      .all({ ...tags.params, session: query.sessionId }) as [number, string][];
    const documents = new Map<string, DocumentTerms>();
    const documentOf = new Map<number, DocumentTerms>();
    for (const [rowid, jobId] of rows) {
      let document = documents.get(jobId);
      if (!document) documents.set(jobId, (document = { jobId, chunks: 0, holding: terms.map(() => 0) }));
      document.chunks += 1;
      documentOf.set(rowid, document);
    }
    if (documents.size === 0) return [];
    const holding = this.database.raw.prepare('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH @match').pluck(true);
    terms.forEach((term, i) => {
      for (const rowid of holding.iterate({ match: `scope : "${sessionScope(query.sessionId)}" AND text : ${term}` }) as IterableIterator<number>) {
        const document = documentOf.get(rowid);
        if (document) document.holding[i] += 1;
      }
    });
    return [...documents.values()];
  }

  async leadingChunks(query: LeadingChunksQuery): Promise<Chunk[]> {
    return leadingChunkRows(this.database.raw, query).map(toChunk);
  }

  async deleteByJob(jobId: string, fromOrdinal = 0): Promise<void> {
    this.database.raw.prepare('DELETE FROM chunks WHERE job_id = ? AND ordinal >= ?').run(jobId, fromOrdinal);
  }

  async deleteBySession(sessionId: string): Promise<void> {
    this.database.raw.prepare('DELETE FROM chunks WHERE session_id = ?').run(sessionId);
  }

  async copyJob(copy: JobCopy): Promise<void> {
    copyChunkRows(this.database.raw, copy);
  }

  async count(filter: { sessionId?: string; jobId?: string }): Promise<number> {
    const row = this.database.raw
      .prepare(
        `SELECT count(*) AS n FROM chunks WHERE (@session IS NULL OR session_id = @session) AND (@job IS NULL OR job_id = @job)`,
      )
      .get({ session: filter.sessionId ?? null, job: filter.jobId ?? null }) as { n: number };
    return row.n;
  }
}

/**
 * BM25's inverse document frequency within the session (`@chunks` of them; count(*): those holding the word), as
 * PostgreSQL's index computes it: never negative, so a word in most of a small session's chunks still counts a little.
 */
const SESSION_IDF_SQL = 'ln(1 + (@chunks - count(*) + 0.5) / (count(*) + 0.5))';

/** The inverse document frequency FTS5's bm25() multiplies a word's score by: over the whole store, floored at 1e-6. */
function storeIdf(chunks: number, holding: number): number {
  return Math.max(Math.log((chunks - holding + 0.5) / (holding + 0.5)), 1e-6);
}

/** The session's token in the `scope` column: the same as the generated column `lower(hex(session_id))`. */
function sessionScope(sessionId: string): string {
  return Buffer.from(sessionId, 'utf8').toString('hex');
}

/** `"word1" OR "word2" …`: each term quoted so FTS5 syntax in a question (AND, NEAR, *, :) is taken literally. */
export function toMatchExpression(text: string): string | null {
  const terms = matchTerms(text);
  return terms.length === 0 ? null : terms.join(' OR ');
}

/** The query's words (searchWords), at most MAX_QUERY_TERMS, each quoted for MATCH. */
function matchTerms(text: string): string[] {
  return quoted(searchWords(text));
}

function quoted(words: string[]): string[] {
  return words.slice(0, MAX_QUERY_TERMS).map((t) => `"${t.replace(/"/g, '""')}"`);
}
