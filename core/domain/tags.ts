import { ValidationError } from './errors.js';

/** Limits of a document's tags (ingestion) and of the tag filters of a question. */
export const MAX_TAG_NAME = 64;
export const MAX_TAG_VALUE = 500;
export const MAX_FILTER_TAGS = 10;
export const MAX_FILTER_VALUES = 50;

/** One condition of a question's filters: the chunk's tag `tag` equals one of `values`. */
export interface TagFilter {
  tag: string;
  values: string[];
}

/** The filters as the API takes them: a value, or a list of values any of which may match, per tag. */
export type TagFilterInput = Record<string, string | string[]>;

/**
 * The question's tag conditions (all must hold): `institution`, the spec's shorthand, then each of `filters`. Both
 * naming the institution gives two conditions on it, both of which must hold. Throws ValidationError on a filter past
 * the limits (they match the ingest limits on tag names and values) or with an empty list.
 */
export function tagFilters(input: { institution?: string; filters?: TagFilterInput }): TagFilter[] {
  const out: TagFilter[] = [];
  const institution = input.institution?.trim();
  if (institution) out.push({ tag: 'institution', values: [institution] });
  if (Array.isArray(input.filters)) throw new ValidationError('filters must be an object of tag names to a value or an array of values');
  const entries = Object.entries(input.filters ?? {});
  if (entries.length > MAX_FILTER_TAGS) throw new ValidationError(`filters may name at most ${MAX_FILTER_TAGS} tags`);
  for (const [tag, value] of entries) {
    if (tag.length === 0 || tag.length > MAX_TAG_NAME) throw new ValidationError(`filters: tag names must be 1..${MAX_TAG_NAME} characters`);
    const values = [...new Set(Array.isArray(value) ? value : [value])];
    if (values.length === 0) throw new ValidationError(`filters.${tag} must list at least one value`);
    if (values.length > MAX_FILTER_VALUES) throw new ValidationError(`filters.${tag} may list at most ${MAX_FILTER_VALUES} values`);
    for (const v of values) {
      if (typeof v !== 'string') throw new ValidationError(`filters.${tag} values must be strings`);
      if (v.length > MAX_TAG_VALUE) throw new ValidationError(`filters.${tag} values must be at most ${MAX_TAG_VALUE} characters`);
    }
    out.push({ tag, values });
  }
  return out;
}

/** Whether a chunk's tags satisfy every condition (the in-process reading of the filters). */
export function matchesTagFilters(tags: Record<string, string>, filters: readonly TagFilter[] | undefined): boolean {
  return (filters ?? []).every((f) => Object.hasOwn(tags, f.tag) && f.values.includes(tags[f.tag]));
}
