import { sql } from 'kysely';
import type { Chunk } from '../../core/domain/model.js';
import type { ChunkHit, DocumentTerms, DocumentTermsQuery, IndexQuery, IndexedChunk, JobCopy, LeadingChunksQuery, VectorIndex } from '../../core/ports/vector-index.js';
import type { TagFilter } from '../../core/domain/tags.js';
import { searchWords, wordTokens } from '../../core/rag/text.js';
import { toChunk, toChunkRow, type ChunkRow } from '../kysely/chunk-rows.js';
import type { PostgresDatabase } from './database.js';

/** Most distinct query terms sent to PostgreSQL: long pasted questions would otherwise make every query slow. */
const MAX_QUERY_TERMS = 32;
/** Rows written per INSERT: one statement per chunk would cost a round trip each. */
const INSERT_BATCH = 500;

/**
 * The lexical index in PostgreSQL: a generated tsvector per chunk (English stemming) in a GIN index that also holds the
 * session id, so the session filter narrows the lookup itself. Ranked by BM25 like the SQLite index
 * (ts_rank_cd found the right passage in the top 5 for 0.77 of SQuAD questions where BM25 finds it for 0.94); the
 * question's content words are OR-ed, so no word is required. A question's reads (search, leadingChunks) use the
 * search pool; writes and counts use the records pool.
 */
export class PostgresLexicalIndex implements VectorIndex {
  readonly kind = 'lexical' as const;

  constructor(private readonly database: PostgresDatabase) {}

  async add(chunks: IndexedChunk[], signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (chunks.length === 0) return;
    // The same id twice in one call: the last one wins, as a replace would.
    chunks = [...new Map(chunks.map((c) => [c.id, c])).values()];
    // One transaction: a document's chunks become visible together, and a failure leaves none of them.
    await this.database.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('chunks').where('id', 'in', chunks.map((c) => c.id)).execute();
      for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
        // Raw SQL: token_count is PostgreSQL's own column, outside the schema type the repositories share.
        const values = chunks.slice(i, i + INSERT_BATCH).map((c) => {
          const r = toChunkRow(c);
          return sql`(${r.id}, ${r.session_id}, ${r.job_id}, ${r.filename}, ${r.page}, ${r.ordinal}, ${r.text}, ${r.tags_json},
            ${c.tags.institution ?? null}, ${wordTokens(c.text).length})`;
        });
        await sql`INSERT INTO chunks (id, session_id, job_id, filename, page, ordinal, text, tags_json, institution, token_count)
          VALUES ${sql.join(values)}`.execute(trx);
      }
    });
  }

  async search(query: IndexQuery): Promise<ChunkHit[]> {
    const terms = queryTerms(query.text);
    if (terms.length === 0 || query.limit <= 0 || query.jobIds?.length === 0) return [];
    const tsquery = terms.join(' | ');
    const tags = tagConditions(query.filters);
    const jobs = query.jobIds ? sql`AND job_id = ANY(${[...query.jobIds]}::text[])` : sql``;
    // BM25 (k1 1.2, b 0.75) over the session, as the SQLite index ranks: the candidates are every chunk of the session
    // holding a query word, so a word's document frequency in the session is its count among them; term frequencies
    // come from the tsvector's positions. Shaped for the planner, which cannot estimate these CTEs (it guesses 1 row):
    // each CTE is MATERIALIZED, so it runs once (the session's count and average length were recomputed per candidate
    // term, 90 % of a search's time), joins go through the candidates' rowid by hash, and the text is read only for the
    // `limit` best rows (EXPLAIN ANALYZE on three PDFs, 708 chunks: 23-165 ms → a few ms). A candidate's query words are
    // picked from its tsvector by marking them (setweight; the column's words carry no weight) and keeping the marked
    // (ts_filter), not by unnesting every word of it; the score is float8, not numeric. Together 10.9 → 2.8 ms for the
    // same hits in the same order (issue 19: questions' searches were most of PostgreSQL's CPU under the chat bench).
    const { rows } = await sql<ChunkRow & { score: number }>`
      WITH candidates AS MATERIALIZED (
        SELECT rowid, tsv, token_count
        FROM chunks
        WHERE session_id = ${query.sessionId} AND tsv @@ to_tsquery('english', ${tsquery}) ${tags} ${jobs}
      ),
      words AS MATERIALIZED (SELECT tsvector_to_array(to_tsvector('english', ${terms.join(' ')})) AS lexemes),
      frequencies AS MATERIALIZED (
        SELECT c.rowid, c.token_count, t.lexeme, cardinality(t.positions) AS tf
        FROM candidates c CROSS JOIN words w, unnest(ts_filter(setweight(c.tsv, 'A', w.lexemes), '{a}')) AS t
      ),
      document_frequencies AS MATERIALIZED (SELECT lexeme, count(*)::float8 AS df FROM frequencies GROUP BY lexeme),
      session AS MATERIALIZED (
        SELECT count(*)::float8 AS n, greatest(avg(token_count)::float8, 1) AS avgdl FROM chunks WHERE session_id = ${query.sessionId}
      ),
      best AS MATERIALIZED (
        SELECT f.rowid, sum(
          ln(1 + (s.n - d.df + 0.5) / (d.df + 0.5))
          * f.tf * 2.2 / (f.tf + 1.2 * (0.25 + 0.75 * f.token_count / s.avgdl))
        ) AS score
        FROM frequencies f
        JOIN document_frequencies d USING (lexeme)
        CROSS JOIN session s
        GROUP BY f.rowid
        ORDER BY score DESC, f.rowid
        LIMIT ${query.limit}
      )
      SELECT c.id, c.session_id, c.job_id, c.filename, c.page, c.ordinal, c.text, c.tags_json, b.score
      FROM best b JOIN chunks c ON c.rowid = b.rowid
      ORDER BY b.score DESC, b.rowid
    `.execute(this.database.search.db);
    return rows.map((row) => ({ chunk: toChunk(row), score: Number(row.score) }));
  }

  /**
   * One pass over the session's chunks that hold a query word (the GIN index finds them), their query words picked
   * from the tsvector as search does, counted per document and word; the documents' sizes from the session's rows.
   * A word that is a stop word to PostgreSQL's stemmer holds none.
   */
  async documentTerms(query: DocumentTermsQuery): Promise<DocumentTerms[]> {
    const terms = queryTerms(query.text);
    if (terms.length === 0) return [];
    const tags = tagConditions(query.filters);
    const db = this.database.search.db;
    const { rows: keys } = await sql<{ lexeme: string | null }>`
      SELECT (tsvector_to_array(to_tsvector('english', term)))[1] AS lexeme
      FROM unnest(${terms}::text[]) WITH ORDINALITY AS t(term, position) ORDER BY position
    `.execute(db);
    // A row without lexeme is a document's size; one with a lexeme, how many of its chunks hold that word.
    const { rows } = await sql<{ job_id: string; lexeme: string | null; n: number }>`
      WITH words AS MATERIALIZED (SELECT tsvector_to_array(to_tsvector('english', ${terms.join(' ')})) AS lexemes)
      SELECT job_id, NULL::text AS lexeme, count(*)::int AS n FROM chunks WHERE session_id = ${query.sessionId} ${tags} GROUP BY job_id
      UNION ALL
      SELECT c.job_id, t.lexeme, count(*)::int
      FROM chunks c CROSS JOIN words w, unnest(ts_filter(setweight(c.tsv, 'A', w.lexemes), '{a}')) AS t
      WHERE c.session_id = ${query.sessionId} AND c.tsv @@ to_tsquery('english', ${terms.join(' | ')}) ${tags}
      GROUP BY c.job_id, t.lexeme
    `.execute(db);
    const documents = new Map<string, { chunks: number; held: Map<string, number> }>();
    for (const { job_id, lexeme, n } of rows) {
      const document = documents.get(job_id) ?? { chunks: 0, held: new Map<string, number>() };
      documents.set(job_id, document);
      if (lexeme === null) document.chunks = n;
      else document.held.set(lexeme, n);
    }
    return [...documents].map(([jobId, { chunks, held }]) => ({
      jobId,
      chunks,
      holding: keys.map(({ lexeme }) => (lexeme === null ? 0 : held.get(lexeme) ?? 0)),
    }));
  }

  async leadingChunks(query: LeadingChunksQuery): Promise<Chunk[]> {
    if (query.perJob < 1 || query.jobIds?.length === 0) return [];
    let q = this.database.search.db
      .selectFrom('chunks')
      .select(['id', 'session_id', 'job_id', 'filename', 'page', 'ordinal', 'text', 'tags_json'])
      .where('session_id', '=', query.sessionId)
      .where('ordinal', '<', Math.floor(query.perJob));
    if (query.jobIds) q = q.where('job_id', 'in', [...query.jobIds]);
    for (const f of query.filters ?? []) q = q.where(sql<boolean>`(tags_json::jsonb ->> ${f.tag}::text) = ANY(${f.values}::text[])`);
    const rows = await q.orderBy('job_id').orderBy('ordinal').execute();
    return rows.map(toChunk);
  }

  async deleteByJob(jobId: string, fromOrdinal = 0): Promise<void> {
    await this.database.db.deleteFrom('chunks').where('job_id', '=', jobId).where('ordinal', '>=', fromOrdinal).execute();
  }

  async deleteBySession(sessionId: string): Promise<void> {
    await this.database.db.deleteFrom('chunks').where('session_id', '=', sessionId).execute();
  }

  /** One statement: the tsvector is generated again from the same text; a chunk the target has already is kept. */
  async copyJob(copy: JobCopy): Promise<void> {
    await sql`INSERT INTO chunks (id, session_id, job_id, filename, page, ordinal, text, tags_json, institution, token_count)
      SELECT ${copy.toJobId} || ':' || ordinal, ${copy.toSessionId}, ${copy.toJobId}, filename, page, ordinal, text, tags_json,
        institution, token_count
      FROM chunks WHERE job_id = ${copy.fromJobId} ORDER BY ordinal
      ON CONFLICT (id) DO NOTHING`.execute(this.database.db);
  }

  async count(filter: { sessionId?: string; jobId?: string }): Promise<number> {
    let q = this.database.db.selectFrom('chunks').select((eb) => eb.fn.countAll<string>().as('n'));
    if (filter.sessionId !== undefined) q = q.where('session_id', '=', filter.sessionId);
    if (filter.jobId !== undefined) q = q.where('job_id', '=', filter.jobId);
    const row = await q.executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

/** Each condition: the tag's value (tags_json read as jsonb) is one of the listed values. */
function tagConditions(filters: readonly TagFilter[] | undefined) {
  return sql.join((filters ?? []).map((f) => sql`AND (tags_json::jsonb ->> ${f.tag}::text) = ANY(${f.values}::text[])`), sql` `);
}

/**
 * The question's words (searchWords) for to_tsquery and to_tsvector, as runs of letters and digits (an apostrophe
 * splits a word), so nothing in a question is read as tsquery syntax.
 */
export function queryTerms(text: string): string[] {
  const words = searchWords(text).flatMap((t) => t.match(/[\p{L}\p{N}]+/gu) ?? []);
  return [...new Set(words)].slice(0, MAX_QUERY_TERMS);
}
