import * as v from 'valibot';
import { ValidationError } from '../../core/domain/errors.js';
import { body, parse, requiredNumber, requiredString } from './validation.js';

export const labelBody = body({ label: requiredString('label') });

export const uploadUrlBody = body({
  filename: requiredString('filename'),
  contentType: requiredString('contentType'),
  contentSize: requiredNumber('contentSize'),
});

const tagValue = v.union([v.string(), v.number(), v.boolean()], 'tag values must be strings, numbers or booleans');

export const ingestBody = body({
  key: requiredString('key'),
  filename: requiredString('filename'),
  session_id: requiredString('session_id'),
  tags: v.record(v.string(), tagValue, 'tags is required and must be an object ({} when none)'),
});

const FILTERS_SHAPE = 'filters must be an object of tag names to a value or an array of values';
/** More than a session is likely to hold at once in a person's selection; the bound keeps a request small. */
const MAX_CHOSEN_DOCUMENTS = 200;

export const chatBody = body({
  message: requiredString('message'),
  sessionId: requiredString('sessionId'),
  institution: v.optional(v.string('institution must be a string')),
  // The shape only; the limits (tags, values, lengths) are the core's (core/domain/tags.ts).
  filters: v.optional(
    v.pipe(
      v.record(v.string(), v.union([v.string(), v.array(v.string())], 'each filter must be a string or an array of strings'), FILTERS_SHAPE),
      v.description('Per tag, a value or a list of values any of which may match; every tag named must match (AND)'),
    ),
  ),
  documents: v.optional(
    v.pipe(
      v.array(v.string('each of documents must be an ingest id (a string)'), 'documents must be an array of ingest ids'),
      v.minLength(1, 'documents must name at least one document (leave it out to ask every document)'),
      v.maxLength(MAX_CHOSEN_DOCUMENTS, `documents must name at most ${MAX_CHOSEN_DOCUMENTS} documents`),
      v.description('Ingest ids of documents of the session: the answer comes only from these (and the filters)'),
    ),
  ),
});

/**
 * The chat request. Where valibot's record is laxer than the document's JSON Schema, the filters are refused here
 * rather than misread: an array (it would read as tags named "0", "1"…), and the names it drops without a word
 * (__proto__, prototype, constructor), which no document can carry either — a filter must never vanish.
 */
export function parseChatBody(input: unknown): v.InferOutput<typeof chatBody> {
  const filters = (input as { filters?: unknown } | null | undefined)?.filters;
  if (Array.isArray(filters)) throw new ValidationError(`filters: ${FILTERS_SHAPE}`);
  const parsed = parse(chatBody, input);
  for (const name of Object.keys((filters ?? {}) as object)) {
    if (!Object.hasOwn(parsed.filters ?? {}, name)) throw new ValidationError(`filters: "${name}" cannot be a tag name`);
  }
  return parsed;
}

/** `page` from the query string: absent → 0, any whole number (negative reads as 0), anything else is refused. */
export const historyQuery = v.object({
  page: v.optional(
    v.pipe(
      v.string('page must be a whole number'),
      v.regex(/^\s*[-+]?\d{1,9}\s*$/, 'page must be a whole number'),
      v.transform((s) => Math.max(0, Number.parseInt(s, 10))),
    ),
    '0',
  ),
});

/** The page of GET /ingest/:id/pages/:page: a whole number from 1. */
export const pageParams = v.object({
  page: v.pipe(v.string(), v.regex(/^[1-9]\d{0,5}$/, 'page must be a whole number from 1'), v.transform(Number)),
});

/** `width` of a page image: the longest side wanted, in pixels; bounded to 100..1600 by the use case. */
export const pageImageQuery = v.object({
  width: v.optional(
    v.pipe(
      v.string('width must be a whole number of pixels'),
      v.regex(/^\d{1,5}$/, 'width must be a whole number of pixels'),
      v.transform(Number),
      v.description('Longest side of the image in pixels, bounded to 100..1600 (default 1600)'),
    ),
  ),
});

/** `text` of GET /ingest/:id/pages/:page/find: the passage to find (its length is checked by the use case). */
export const passageQuery = v.object({
  text: v.pipe(v.string('text must be the passage to find, given once'), v.description('The passage to find on the page')),
});

/** A library document's id: the sha256 (hex) GET /api/v1/documents lists it by. */
export const addDocumentBody = body({
  documentId: v.pipe(
    requiredString('documentId'),
    v.regex(/^[0-9a-f]{64}$/, 'documentId must be the id of a document of GET /api/v1/documents (64 hex digits)'),
  ),
});

/** The search box's text; its length and blankness are the core's to judge (core/use-cases/search-records.ts). */
export const searchQuery = v.object({
  q: v.pipe(v.string('q is required, once'), v.description('The words to look for (1–200 characters)')),
});
