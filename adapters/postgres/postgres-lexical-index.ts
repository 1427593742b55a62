import { sql } from 'kysely';
import type { ChunkHit, IndexQuery, IndexedChunk, VectorIndex } from '../../core/ports/vector-index.js';
import { contentTokens, wordTokens } from '../../core/rag/text.js';
import { toChunk, toChunkRow } from '../sqlite/chunk-rows.js';
import type { PostgresDatabase } from './database.js';

/** Most distinct query terms sent to PostgreSQL: long pasted questions would otherwise make every query slow. */
const MAX_QUERY_TERMS = 32;
/** Rows written per INSERT: one statement per chunk would cost a round trip each. */
const INSERT_BATCH = 500;

/**
 * The lexical index in PostgreSQL: a generated tsvector per chunk (English stemming) in a GIN index that also holds the
 * session id, so the session (and institution) filters narrow the lookup itself. Ranked by ts_rank_cd with document
 * length normalisation; the question's content words are OR-ed, so no word is required.
 */
export class PostgresLexicalIndex implements VectorIndex {
  readonly kind = 'lexical' as const;

  constructor(private readonly database: PostgresDatabase) {}

  async add(chunks: IndexedChunk[]): Promise<void> {
    if (chunks.length === 0) return;
    // The same id twice in one call: the last one wins, as a replace would.
    chunks = [...new Map(chunks.map((c) => [c.id, c])).values()];
    // One transaction: a document's chunks become visible together, and a failure leaves none of them.
    await this.database.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('chunks').where('id', 'in', chunks.map((c) => c.id)).execute();
      for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
        const rows = chunks.slice(i, i + INSERT_BATCH).map((c) => ({ ...toChunkRow(c), institution: c.tags.institution ?? null }));
        await trx.insertInto('chunks').values(rows).execute();
      }
    });
  }

  async search(query: IndexQuery): Promise<ChunkHit[]> {
    const tsquery = toTsQuery(query.text);
    if (!tsquery || query.limit <= 0) return [];
    const institution = query.institution !== undefined ? sql`AND institution = ${query.institution}` : sql``;
    const { rows } = await sql<{ id: string; session_id: string; job_id: string; filename: string; page: number; ordinal: number; text: string; tags_json: string; score: number }>`
      SELECT id, session_id, job_id, filename, page, ordinal, text, tags_json, ts_rank_cd(tsv, q, 1) AS score
      FROM chunks, to_tsquery('english', ${tsquery}) AS q
      WHERE session_id = ${query.sessionId} AND tsv @@ q ${institution}
      ORDER BY score DESC, rowid
      LIMIT ${query.limit}
    `.execute(this.database.db);
    return rows.map((row) => ({ chunk: toChunk(row), score: Number(row.score) }));
  }

  async deleteByJob(jobId: string): Promise<void> {
    await this.database.db.deleteFrom('chunks').where('job_id', '=', jobId).execute();
  }

  async deleteBySession(sessionId: string): Promise<void> {
    await this.database.db.deleteFrom('chunks').where('session_id', '=', sessionId).execute();
  }

  async count(filter: { sessionId?: string; jobId?: string }): Promise<number> {
    let q = this.database.db.selectFrom('chunks').select((eb) => eb.fn.countAll<string>().as('n'));
    if (filter.sessionId !== undefined) q = q.where('session_id', '=', filter.sessionId);
    if (filter.jobId !== undefined) q = q.where('job_id', '=', filter.jobId);
    const row = await q.executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

/**
 * `word1 | word2 | …` for to_tsquery. Only letters and digits reach it (apostrophes split a word in two), so nothing in
 * a question is read as tsquery syntax.
 */
export function toTsQuery(text: string): string | null {
  const content = contentTokens(text);
  const words = (content.length > 0 ? content : wordTokens(text)).flatMap((t) => t.match(/[\p{L}\p{N}]+/gu) ?? []);
  const terms = [...new Set(words)].slice(0, MAX_QUERY_TERMS);
  return terms.length > 0 ? terms.join(' | ') : null;
}
