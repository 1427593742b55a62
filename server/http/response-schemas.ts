import * as v from 'valibot';
import { text, timestamp, wholeNumber } from './schema-parts.js';

/**
 * The response bodies of the HTTP API, as valibot schemas beside the request schemas (schemas.ts). They are not used
 * to build responses: the OpenAPI document (openapi/) is generated from them, and the end-to-end tests check every
 * response against that document. Objects are strict, so a field added to a response without adding it here fails
 * those tests.
 */


export const SessionJson = v.strictObject({
  id: text('Identifier of the session (a UUID)'),
  label: text('Human-readable name, trimmed, 1–200 characters'),
  user_id: text('Identifier of the owning user'),
  createdAt: timestamp('ISO 8601 timestamp'),
});

/** The rename response omits createdAt (spec). */
export const RenamedSessionJson = v.omit(SessionJson, ['createdAt']);

export const SessionList = v.pipe(v.array(SessionJson), v.description('A bare array of the caller’s sessions'));
export const CreatedSession = v.strictObject({ data: SessionJson });
export const RenamedSession = v.strictObject({ data: RenamedSessionJson });

export const Source = v.strictObject({
  filename: text('Name the document was ingested under'),
  page: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('1-based page of the passage')),
  excerpt: text('Part of the passage: around what the answer quotes of it, or else what best matches the question'),
  score: v.pipe(v.number(), v.description('Retrieval score; higher is better, comparable within one answer only')),
  ingestId: text('The ingest job of the document'),
  cited: v.pipe(v.boolean(), v.description('Whether the answer quotes (or cites) this passage; false: a passage found for the question that the answer does not draw on')),
  marker: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description('The number the answer’s text cites it by ([2]: 2); only on cited sources, when the answer numbers them'))),
  quote: v.optional(text('What the answer quotes of the passage, word for word (… where it left words out); only on cited sources, when the answerer says (the extractive one does)')),
  unit: v.optional(text('Of a document without pages (Word, Excel, PowerPoint, HTML, text, e-mail): the unit the passage is in ("Sheet Q3", "Slide 4", "7. Termination"), named in place of the page, which then counts units; GET /api/v1/ingest/{id}/pages/{page}/text returns its text')),
});

export const ChatAnswer = v.strictObject({
  success: v.literal(true),
  data: text('The generated answer'),
  sources: v.pipe(v.array(Source), v.description('The passages the answer is grounded in, best first; [] when none')),
  saved: v.optional(v.pipe(v.literal(false), v.description(
    'Present when the question and answer could not be stored in the chat history (e.g. the server is out of disk space); the answer ends with a note saying so',
  ))),
});

/** The data of each server-sent event of a streamed answer (Accept: text/event-stream), by event name. */
export const AnswerDeltaEvent = v.strictObject({ text: text('The next piece of the answer’s text, as the answerer produced it') });
export const AnswerSourcesEvent = v.strictObject({
  sources: v.pipe(v.array(Source), v.description('The passages the answer is grounded in, best first; [] when none')),
});
export const AnswerDoneEvent = v.union([
  v.strictObject({
    userMessageId: text('The stored question'),
    assistantMessageId: text('The stored answer'),
  }),
  v.strictObject({
    saved: v.pipe(v.literal(false), v.description('The question and answer could not be stored (the last delta says so); nothing was stored')),
  }),
]);
export const AnswerErrorEvent = v.pipe(
  v.union([
    v.strictObject({ success: v.literal(false), error: v.literal('Service Unavailable') }),
    v.strictObject({ success: v.literal(false), error: v.literal('Internal Server Error') }),
  ]),
  v.description('The body the chat route answers for the failure as JSON; nothing was stored'),
);

export const ChatMessageJson = v.strictObject({
  role: v.picklist(['user', 'assistant']),
  content: text('Text of the message'),
  createdAt: timestamp('ISO 8601 timestamp'),
  sources: v.optional(
    v.pipe(v.array(Source), v.description('Assistant messages only: the passages the answer cited, as the chat answer gave them')),
  ),
});

export const ChatHistoryPage = v.strictObject({
  success: v.literal(true),
  data: v.pipe(v.array(ChatMessageJson), v.maxLength(20), v.description('Up to 20 messages, oldest first')),
  total: wholeNumber('Messages in the session: the last page is floor((total - 1) / 20)'),
});

export const AcceptedTypes = v.strictObject({
  data: v.strictObject({
    contentTypes: v.pipe(v.array(v.string()), v.description('The contract\'s three types, then those ACCEPTED_TYPES turns on')),
    extensions: v.pipe(v.record(v.string(), v.string()), v.description('File name extensions (without the dot) and the type each implies')),
  }),
});

export const UploadUrl = v.strictObject({
  uploadData: v.strictObject({
    signedUrl: v.pipe(v.string(), v.url(), v.description('Send the file here with HTTP PUT and the declared Content-Type')),
    key: text('Object storage key; pass it to POST /api/v1/ingest/process as `key`'),
    expiresAt: timestamp('When signedUrl stops working (one hour after issue)'),
  }),
});

export const IngestStarted = v.strictObject({ data: text('Identifier of the ingest job (the ingest log record)') });

export const IngestJobJson = v.strictObject({
  id: text('Identifier of the ingest job'),
  status: v.picklist(['queued', 'processing', 'completed', 'failed']),
  stage: v.optional(v.picklist(['reading', 'extracting', 'recognizing', 'chunking', 'embedding', 'indexing'])),
  progress: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1), v.description('0..1 within the whole job'))),
  filename: v.string(),
  session_id: v.string(),
  error: v.optional(text('Why the job failed')),
  readingPage: v.optional(wholeNumber('While extracting: the page being read (1-based)')),
  pages: v.optional(wholeNumber('Pages read; while processing, the document page count once the reader knows it')),
  chunks: v.optional(wholeNumber('Chunks indexed')),
  ocrSkippedPages: v.optional(wholeNumber('Pages that needed OCR beyond the per-document OCR page limit, left out (only when above 0)')),
  attempts: v.optional(wholeNumber('Runs started for the job (only when above 1)')),
  reusedFrom: v.optional(text('The earlier job of this session whose chunks are reused (same content and tags)')),
  kind: v.optional(text('What kind of document it is (receipt, financial-report, form, letter, other), told once it is read or given by the `document_kind` tag')),
  attachedTo: v.optional(text('Came attached to an e-mail of the session: the ingest id of the mail, which made this document')),
  copiedFrom: v.optional(text('Added from the library (POST /api/v1/session/{sessionId}/documents): the job whose chunks were copied')),
  tags: v.record(v.string(), v.string()),
  createdAt: timestamp('ISO 8601 timestamp'),
  updatedAt: timestamp('ISO 8601 timestamp'),
});

export const IngestJobStatus = v.strictObject({ data: IngestJobJson });
export const DocumentList = v.strictObject({
  data: v.pipe(v.array(IngestJobJson), v.description('The session’s documents (its ingest jobs, any status), newest first')),
});
export const DocumentNotFound = v.strictObject({ error: v.literal('Document not found') });

/** Public readiness names a dependency and whether it answered; what it answered goes to the log only. */
export const DependencyCheck = v.strictObject({ name: v.string(), ok: v.boolean() });

const DEGRADED = v.pipe(
  v.array(v.string()),
  v.minLength(1),
  v.description('Names of the dependencies that do not answer but that the service answers without (with less: e.g. no semantic search)'),
);
export const Ready = v.union([
  v.strictObject({ status: v.literal('ready'), dependencies: v.array(DependencyCheck) }),
  v.strictObject({ status: v.literal('degraded'), degraded: DEGRADED, dependencies: v.array(DependencyCheck) }),
]);
export const NotReady = v.strictObject({
  status: v.literal('unavailable'),
  unavailable: v.pipe(v.array(v.string()), v.minLength(1), v.description('Names of the dependencies that do not answer')),
  degraded: v.optional(DEGRADED),
  dependencies: v.array(DependencyCheck),
});

export const AuthConfig = v.union([
  v.strictObject({ mode: v.literal('local') }),
  v.strictObject({
    mode: v.literal('supabase'),
    supabaseUrl: v.pipe(v.string(), v.url(), v.description('The Supabase project URL to sign in with (supabase-js)')),
    supabaseAnonKey: text('The project’s public anon key (public by design)'),
  }),
]);

export const UploadAccepted = v.strictObject({ ok: v.literal(true) });

/** The document itself, loosely: its validity as OpenAPI 3.1 is a test of its own. */
export const OpenApiJson = v.looseObject({ openapi: v.pipe(v.string(), v.startsWith('3.1.')), info: v.looseObject({}), paths: v.looseObject({}) });

// Error bodies (spec §7 and docs/api.md). Which route answers which is listed in openapi/operations.ts.

/** 400, 403, 404 (other than sessions), 413 … on the default shape. */
export const ErrorMessage = v.strictObject({ error: text('What is wrong, in words') });
export const Unauthorized = v.strictObject({ error: v.literal('Unauthorized Access') });
export const SessionNotFound = v.strictObject({ error: v.literal('Session not found') });
const fraction = (description: string) => v.pipe(v.number(), v.minValue(0), v.maxValue(1), v.description(description));
export const PageArea = v.strictObject({
  x: fraction('Left edge, as a fraction of the page image’s width'),
  y: fraction('Top edge, as a fraction of the page image’s height'),
  width: fraction('Width, as a fraction of the page image’s width'),
  height: fraction('Height, as a fraction of the page image’s height'),
});
export const PassageAreas = v.strictObject({
  data: v.pipe(v.array(PageArea), v.description('Where the passage is drawn, a line of it each, in page order; [] when the page does not hold it')),
});

export const PageText = v.strictObject({
  data: v.strictObject({
    label: text('The unit’s name ("Sheet Q3", "Slide 4", "7. Termination"); "" for a unit without one'),
    text: text('The unit’s text as it was read for the answers (plain text: never the document’s own markup)'),
  }),
});
export const NoPageText = v.strictObject({ error: v.literal('This document has pages of its own: its page images show them') });

export const IngestJobNotFound = v.strictObject({ error: v.literal('Ingest job not found') });
export const PageNotFound = v.strictObject({ error: v.literal('Page not found') });
export const RouteNotFound = v.strictObject({ error: v.literal('Not found') });
export const BodyTooLarge = v.strictObject({ error: v.literal('Request body is too large') });
export const SessionDeletionFailed = v.strictObject({ error: v.literal('Session deletion failed') });

export const InternalError = v.strictObject({ error: v.literal('Internal Server Error'), code: v.literal('INTERNAL') });
export const ChatInternalError = v.strictObject({ success: v.literal(false), error: v.literal('Internal Server Error') });
export const SessionCreateInternalError = v.strictObject({
  success: v.literal(false),
  error: v.literal('Internal Server Error'),
  code: v.literal('INTERNAL'),
});

export const ServiceUnavailable = v.strictObject({
  error: v.literal('Service Unavailable'),
  code: v.literal('UPSTREAM_UNAVAILABLE'),
  unavailable: text('The dependency that did not answer, one of "identity provider", "object storage", "vector index", "ollama"'),
});
export const ChatServiceUnavailable = v.strictObject({ success: v.literal(false), error: v.literal('Service Unavailable') });
export const SessionCreateServiceUnavailable = v.strictObject({
  success: v.literal(false),
  error: v.literal('Service Unavailable'),
  code: v.literal('UPSTREAM_UNAVAILABLE'),
});

/** 429 on chat: the user has MAX_QUESTIONS_PER_USER questions in progress. */
export const ChatQuestionsLimited = v.strictObject({
  success: v.literal(false),
  error: v.pipe(v.string(), v.startsWith('Too many questions in progress')),
});

const RATE_LIMITED_TEXT = v.literal('Too many failed authentications from this address; try again later');
/** 429 after too many refused tokens from one address, in the route's error shape (chat, session creation, the rest). */
export const AuthRateLimited = v.union([
  v.strictObject({ error: RATE_LIMITED_TEXT, code: v.literal('RATE_LIMITED') }),
  v.strictObject({ success: v.literal(false), error: RATE_LIMITED_TEXT }),
  v.strictObject({ success: v.literal(false), error: RATE_LIMITED_TEXT, code: v.literal('RATE_LIMITED') }),
]);
export const BodyTimeout = v.strictObject({ error: v.literal('Request body not received in time') });
/** 503 on any route: a connection or a forwarded address over a cap of server/http/client-limits.ts. */
export const OverCapacity = v.strictObject({
  error: v.pipe(
    v.string(),
    v.regex(/^Too many (connections|requests in progress) .*; try again shortly$/),
    v.description('Which cap: connections from this address, connections to this server, or requests in progress from this address'),
  ),
});

/** 409 on ingest: a job for the key is already queued or processing (its id in `data`), or the file changed. */
export const IngestConflict = v.union([
  v.strictObject({
    error: v.literal('An ingest job for this key is already queued or processing'),
    data: text('Identifier of the ingest job already queued or processing for this key'),
  }),
  ErrorMessage,
]);
