import type { TagFilter } from '../../core/domain/tags.js';

/**
 * The tag conditions as SQL over a chunk row's `tags_json` (alias `chunk`): one EXISTS over json_each per condition,
 * so a tag name or value of any characters is a bound parameter, never part of a JSON path. Runs on the rows the
 * session (and, for full text, MATCH) already narrowed to. Parameters are named `tag_<i>` and `tag_<i>_<j>`.
 */
export function tagFilterSql(filters: readonly TagFilter[] | undefined, chunk: string): { sql: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const conditions = (filters ?? []).map((filter, i) => {
    params[`tag_${i}`] = filter.tag;
    const values = filter.values.map((value, j) => {
      params[`tag_${i}_${j}`] = value;
      return `@tag_${i}_${j}`;
    });
    return `AND EXISTS (SELECT 1 FROM json_each(${chunk}.tags_json) t WHERE t.key = @tag_${i} AND t.value IN (${values.join(', ')}))`;
  });
  return { sql: conditions.join(' '), params };
}

/** `AND <row>.job_id IN (…)` for IndexQuery.jobIds, each id a bound parameter (`job_<i>`); '' for every job. */
export function jobIdSql(jobIds: readonly string[] | undefined, row: string): { sql: string; params: Record<string, string> } {
  if (jobIds === undefined) return { sql: '', params: {} };
  const params = Object.fromEntries(jobIds.map((id, i) => [`job_${i}`, id]));
  return { sql: `AND ${row}.job_id IN (${Object.keys(params).map((k) => `@${k}`).join(', ')})`, params };
}
