import * as v from 'valibot';
import { chatBody, historyQuery, ingestBody, labelBody, pageImageQuery, passageQuery, uploadUrlBody } from '../schemas.js';
import * as r from '../response-schemas.js';
import { libraryOperations } from './library-operations.js';

/**
 * Every operation of the HTTP API and every status it answers: the one place the contract is declared. The OpenAPI
 * document (document.ts) is generated from this table and the end-to-end tests refuse any response whose status is
 * not listed here for its route, or whose body does not match. To add a status to a route, add one line to that
 * route's `responses`; a status every token-protected route may answer goes into AUTHENTICATED below.
 */

type Schema = v.GenericSchema;

export interface ApiResponseSpec {
  description: string;
  /** The JSON body's schema; absent for an empty body. */
  json?: Schema;
  /** A text/plain body's schema (a string schema). */
  text?: Schema;
  /** A binary body (an image): the media types it may have. */
  binary?: { mediaTypes: string[] };
  /** A text/event-stream body: each event's name and the schema of its JSON `data`. */
  events?: { description: string; schemas: Record<string, Schema> };
}

export interface ApiOperation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path template. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  /** Callable without a bearer token. */
  public?: true;
  pathParameters?: Record<string, string>;
  /** The one path parameter whose value keeps its slashes (the local upload key). */
  multiSegmentParameter?: string;
  /** A valibot object schema of the query string (its properties become query parameters). */
  query?: v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;
  /** The JSON request body's schema. */
  body?: Schema;
  /** A raw request body: the media types it may carry. */
  rawBody?: { mediaTypes: string[]; description: string };
  responses: Record<number, ApiResponseSpec>;
}

const json = (description: string, schema: Schema): ApiResponseSpec => ({ description, json: schema });

/** Answers every route that needs a token may give before its handler runs. */
export const AUTHENTICATED: Record<number, ApiResponseSpec> = {
  401: json('The token is missing, malformed, invalid or expired', r.Unauthorized),
  408: json('The request body did not arrive within HTTP_BODY_TIMEOUT_MS; the connection is closed', r.BodyTimeout),
  429: json('Too many refused tokens from this address (AUTH_FAILURES_PER_MINUTE); see Retry-After. In the route’s error shape', r.AuthRateLimited),
};

/**
 * What every route may answer before it runs: a connection past MAX_CONNECTIONS_PER_CLIENT or MAX_CONNECTIONS, or behind
 * TRUST_PROXY a forwarded address with that many requests in progress (server/http/client-limits.ts).
 */
export const OVER_CAPACITY = json(
  'Over a connection cap (MAX_CONNECTIONS_PER_CLIENT per address, MAX_CONNECTIONS in all; behind TRUST_PROXY requests in progress per forwarded address); see Retry-After',
  r.OverCapacity,
);

const BAD_REQUEST = json('A missing or mistyped field or malformed JSON; `error` names the field and what is wrong', r.ErrorMessage);
const BODY_TOO_LARGE = json('The JSON body is over 1 MB', r.BodyTooLarge);
const SESSION_NOT_FOUND = json('The session does not exist or belongs to another user (indistinguishable)', r.SessionNotFound);
const FAILED = json('An unexpected failure, logged under the X-Request-Id header', r.InternalError);
const UNAVAILABLE = json('A dependency (identity provider, object storage, vector index, Ollama) did not answer', r.ServiceUnavailable);
const OUT_OF_SPACE = json(
  'DATA_DIR’s free space is below DISK_RESERVE_BYTES: new uploads and ingests are refused until space is freed (reads, ' +
    'questions and deletions go on); `error` says the server is out of disk space',
  r.ErrorMessage,
);
const DELETED = (what: string): ApiResponseSpec => ({ description: `${what}; empty body` });

const signature = (description: string) => v.pipe(v.string(), v.description(description));
const signedUploadQuery = v.object({
  expires: signature('Expiry, Unix seconds'),
  type: signature('The signed Content-Type'),
  size: signature('The signed size in bytes'),
  sig: signature('HMAC-SHA256 of key, expiry, type and size'),
});

const SESSION_ID = { sessionId: 'Identifier of the session' };

export const API_OPERATIONS: ApiOperation[] = [
  {
    method: 'get', path: '/api/v1/health', operationId: 'health', summary: 'Liveness: the bare text `up`', public: true,
    responses: { 200: { description: 'The service is running', text: v.literal('up') } },
  },
  {
    method: 'get', path: '/api/v1/health/ready', operationId: 'readiness', public: true,
    summary: 'Readiness: whether every configured dependency answers',
    responses: {
      200: json('Every dependency answered (`ready`), or only ones the service answers without did not (`degraded`, named)', r.Ready),
      503: json('At least one dependency did not answer; `unavailable` names them', r.NotReady),
    },
  },
  {
    method: 'get', path: '/api/v1/openapi.json', operationId: 'openApiDocument', public: true,
    summary: 'This OpenAPI 3.1 document',
    responses: { 200: json('The OpenAPI document', r.OpenApiJson) },
  },
  {
    method: 'get', path: '/api/v1/auth/config', operationId: 'authConfig', public: true,
    summary: 'How a browser signs in: local tokens, or Supabase Auth with its URL and public anon key',
    responses: { 200: json('`{ "mode": "local" }` or `{ "mode": "supabase", "supabaseUrl", "supabaseAnonKey" }`', r.AuthConfig) },
  },
  {
    method: 'get', path: '/metrics', operationId: 'metrics', public: true,
    summary: 'Prometheus metrics of this instance (text exposition format)',
    description:
      'Request durations by route pattern and status, ingest jobs by state, queue wait, extraction time, pages ' +
      'extracted, index search time, dependency errors and process metrics. Needs no API token; with METRICS_TOKEN ' +
      'set, only `Authorization: Bearer <METRICS_TOKEN>`. With METRICS_PORT set it is served on that port instead.',
    responses: {
      200: { description: 'The series, in Prometheus’ text format (version 0.0.4)', text: v.pipe(v.string(), v.minLength(1)) },
      401: json('METRICS_TOKEN is set and the request does not carry it', r.Unauthorized),
      500: json('A series could not be collected (e.g. the records database did not answer)', r.ErrorMessage),
    },
  },
  {
    method: 'get', path: '/api/v1/session/', operationId: 'listSessions', summary: 'List the caller’s sessions',
    responses: { 200: json('A bare array of the caller’s sessions', r.SessionList), 500: FAILED, 503: UNAVAILABLE },
  },
  {
    method: 'post', path: '/api/v1/session/', operationId: 'createSession', summary: 'Create a session', body: labelBody,
    responses: {
      201: json('The new session', r.CreatedSession),
      400: BAD_REQUEST,
      413: BODY_TOO_LARGE,
      500: json('An unexpected failure (session creation’s body carries success and code)', r.SessionCreateInternalError),
      503: json('A dependency did not answer (session creation’s body)', r.SessionCreateServiceUnavailable),
    },
  },
  {
    method: 'patch', path: '/api/v1/session/{sessionId}', operationId: 'renameSession', summary: 'Rename a session',
    pathParameters: SESSION_ID, body: labelBody,
    responses: {
      200: json('The renamed session, without createdAt', r.RenamedSession),
      400: BAD_REQUEST, 404: SESSION_NOT_FOUND, 413: BODY_TOO_LARGE, 500: FAILED, 503: UNAVAILABLE,
    },
  },
  {
    method: 'delete', path: '/api/v1/session/{sessionId}', operationId: 'deleteSession',
    summary: 'Delete a session with its messages, ingest jobs, chunks and stored files', pathParameters: SESSION_ID,
    responses: {
      204: DELETED('Deleted'),
      404: SESSION_NOT_FOUND,
      500: FAILED,
      503: json('Object storage or the vector index did not answer; the session is kept, repeat the call', r.ServiceUnavailable),
    },
  },
  {
    method: 'get', path: '/api/v1/session/{sessionId}/documents', operationId: 'listDocuments',
    summary: 'The session’s documents (its ingest jobs, any status), newest first', pathParameters: SESSION_ID,
    responses: { 200: json('The documents, in the record shape of GET /api/v1/ingest/{id}', r.DocumentList), 404: SESSION_NOT_FOUND, 500: FAILED, 503: UNAVAILABLE },
  },
  {
    method: 'delete', path: '/api/v1/session/{sessionId}/documents/{ingestId}', operationId: 'deleteDocument',
    summary: 'Remove a document: its chunks, its stored file (unless another session holds it) and its record',
    description:
      'A document still queued or being ingested is cancelled, then removed. The session’s later ingests of the same ' +
      'content (`reusedFrom` this document) go with it; other sessions’ copies are untouched. Its passages are no ' +
      'longer cited; answers already in the history keep the sources they had.',
    pathParameters: { ...SESSION_ID, ingestId: 'Identifier of the document’s ingest job' },
    responses: {
      204: DELETED('Removed'),
      404: json('The document does not exist, is not in this session, or the session is another user’s', r.DocumentNotFound),
      500: FAILED,
      503: json('Object storage or the vector index did not answer; the document is kept, repeat the call', r.ServiceUnavailable),
    },
  },
  ...libraryOperations({ json, BAD_REQUEST, BODY_TOO_LARGE, SESSION_NOT_FOUND, FAILED, UNAVAILABLE, OUT_OF_SPACE }),
  {
    method: 'post', path: '/api/v1/chat/completions', operationId: 'askQuestion',
    summary: 'Ask a question about the documents of a session', body: chatBody,
    responses: {
      200: {
        ...json('The answer and its sources', r.ChatAnswer),
        events: {
          description:
            'With `Accept: text/event-stream`: server-sent events, each with a JSON `data` line — `delta` events (the ' +
            'answer’s text in pieces, as the answerer produces it), then one `sources`, then `done` with the ids of the ' +
            'stored question and answer (or `saved: false` when they could not be stored, the last delta saying so); or, when the answer fails after the stream started, one `error` event with ' +
            'the chat route’s error body, and nothing stored. Failures before the first event answer with their status ' +
            'and JSON body as without the header. A client that disconnects cancels the answer; nothing is stored.',
          schemas: { delta: r.AnswerDeltaEvent, sources: r.AnswerSourcesEvent, done: r.AnswerDoneEvent, error: r.AnswerErrorEvent },
        },
      },
      400: json(
        'A missing or mistyped field, malformed JSON, or bad `filters` (over 10 tags, over 50 values for a tag, a ' +
          'name over 64 or a value over 500 characters, an empty list, a value that is not a string)',
        r.ErrorMessage,
      ),
      404: SESSION_NOT_FOUND, 413: BODY_TOO_LARGE,
      429: json(
        'The user already has MAX_QUESTIONS_PER_USER questions in progress, or the address is over AUTH_FAILURES_PER_MINUTE; ' +
          'see Retry-After (the chat route’s body)',
        v.union([r.ChatQuestionsLimited, r.AuthRateLimited]),
      ),
      500: json('An unexpected failure, also a worker thread that crashed while answering (the chat route’s body)', r.ChatInternalError),
      503: json('A dependency did not answer, or the answer queue is full (ANSWER_QUEUE_LIMIT) (the chat route’s body)', r.ChatServiceUnavailable),
    },
  },
  {
    method: 'get', path: '/api/v1/chat/history/{sessionId}', operationId: 'chatHistory',
    summary: 'One page of the chat history, oldest first, 20 messages a page', pathParameters: SESSION_ID, query: historyQuery,
    responses: {
      200: json('The requested page; [] past the end', r.ChatHistoryPage),
      400: json('`page` is not a whole number: "page: page must be a whole number"', r.ErrorMessage),
      404: SESSION_NOT_FOUND, 500: FAILED, 503: UNAVAILABLE,
    },
  },
  {
    method: 'delete', path: '/api/v1/chat/{sessionId}', operationId: 'clearChat',
    summary: 'Delete every chat message of a session (the session stays)', pathParameters: SESSION_ID,
    responses: {
      204: DELETED('Cleared'),
      400: json('The deletion could not be completed (any failure other than the ones below)', r.SessionDeletionFailed),
      404: SESSION_NOT_FOUND, 503: UNAVAILABLE,
    },
  },
  {
    method: 'post', path: '/api/v1/ingest/upload/url', operationId: 'createUploadUrl',
    summary: 'A presigned URL to PUT one file to object storage', body: uploadUrlBody,
    responses: {
      200: json('Where to PUT the file and its key', r.UploadUrl),
      400: json(
        'A missing or mistyped field; "Maximum file size limit exceed" (size, checked first) or ' +
          '"Invalid File Type | Valid Type Are: application/pdf, image/jpeg, image/jpg" (with ACCEPTED_TYPES set, the ' +
          'types taken here after the same prefix)',
        r.ErrorMessage,
      ),
      413: json('The JSON body is over 1 MB, or the file would pass the user’s storage quota (USER_STORAGE_QUOTA_BYTES)', r.ErrorMessage),
      429: json(
        'The user has MAX_PENDING_UPLOADS upload URLs not yet ingested, or the address is over AUTH_FAILURES_PER_MINUTE',
        v.union([r.ErrorMessage, r.AuthRateLimited]),
      ),
      500: FAILED, 503: UNAVAILABLE, 507: OUT_OF_SPACE,
    },
  },
  {
    method: 'get', path: '/api/v1/ingest/upload/types', operationId: 'acceptedUploadTypes',
    summary: 'The file types the upload-URL route takes on this deployment (ACCEPTED_TYPES)',
    responses: { 200: json('The accepted content types and the file name extensions that imply them', r.AcceptedTypes), 500: FAILED, 503: UNAVAILABLE },
  },
  {
    method: 'post', path: '/api/v1/ingest/process', operationId: 'startIngestion',
    summary: 'Ingest an uploaded file into a session, in the background', body: ingestBody,
    responses: {
      201: json('The ingest job was queued; follow it with GET /api/v1/ingest/{id}', r.IngestStarted),
      400: json(
        'A missing or mistyped field, bad tags, no file (or an empty one) uploaded under `key`, or a file whose size is not the one its URL was issued for',
        r.ErrorMessage,
      ),
      403: json('`key` was not issued to the caller (or was swept, never ingested, an hour after its URL expired)', r.ErrorMessage),
      404: SESSION_NOT_FOUND,
      409: json(
        'A job for `key` is already queued or processing (its id in `data`), or the file under `key` changed after it was first ingested',
        r.IngestConflict,
      ),
      413: BODY_TOO_LARGE, 500: FAILED, 503: UNAVAILABLE, 507: OUT_OF_SPACE,
    },
  },
  {
    method: 'get', path: '/api/v1/ingest/{id}', operationId: 'ingestJobStatus', summary: 'Status of an ingest job',
    pathParameters: { id: 'Identifier of the ingest job, as POST /api/v1/ingest/process returned it' },
    responses: {
      200: json('The job', r.IngestJobStatus),
      404: json('The job does not exist or belongs to another user', r.IngestJobNotFound),
      500: FAILED, 503: UNAVAILABLE,
    },
  },
  {
    method: 'get', path: '/api/v1/ingest/{id}/pages/{page}', operationId: 'pageImage',
    summary: 'A page of the document as an image, for its owner',
    description:
      'Rendered from the stored file: a PDF page as PNG, a photographed page (a JPEG upload is its own page 1) upright ' +
      'as JPEG. The longest side is at most 1600 pixels, or `width` (bounded to 100..1600). Answers carry ' +
      '`Cache-Control: private, max-age=3600` and an `ETag`; `If-None-Match` with it answers 304.',
    pathParameters: { id: 'Identifier of the ingest job (the document)', page: 'The 1-based page, a whole number' },
    query: pageImageQuery,
    responses: {
      200: { description: 'The page image', binary: { mediaTypes: ['image/png', 'image/jpeg'] } },
      304: { description: 'The image named by If-None-Match is still current; empty body' },
      400: json('`page` is not a whole number from 1 ("page: page must be a whole number from 1"), or `width` is not a whole number', r.ErrorMessage),
      404: json(
        'The job does not exist or belongs to another user ("Ingest job not found"), or the document has no such page ("Page not found")',
        v.union([r.IngestJobNotFound, r.PageNotFound]),
      ),
      500: FAILED, 503: UNAVAILABLE,
    },
  },
  {
    method: 'get', path: '/api/v1/ingest/{id}/pages/{page}/text', operationId: 'pageText',
    summary: 'A unit of a document without pages (a sheet, a slide, a section) as text, for its owner',
    description:
      'Of a Word, Excel, PowerPoint, HTML, Markdown, text, CSV or e-mail document, whose units are its pages (a ' +
      'source’s `unit` names one): its label and its text, read again from the stored file, so that a client can show ' +
      'a source’s passage in its context. PDFs and photos are shown as page images instead. Answers carry ' +
      '`Cache-Control: private, max-age=3600`.',
    pathParameters: { id: 'Identifier of the ingest job (the document)', page: 'The 1-based page (unit), a whole number' },
    responses: {
      200: json('The unit', r.PageText),
      400: json('`page` is not a whole number from 1 ("page: page must be a whole number from 1")', r.ErrorMessage),
      404: json(
        'The job does not exist or belongs to another user ("Ingest job not found"), the document has no such page ("Page not found"), ' +
        'or it is a document with pages of its own, a PDF or a photo ("This document has pages of its own: its page images show them")',
        v.union([r.IngestJobNotFound, r.PageNotFound, r.NoPageText]),
      ),
      500: FAILED, 503: UNAVAILABLE,
    },
  },
  {
    method: 'get', path: '/api/v1/ingest/{id}/pages/{page}/find', operationId: 'findPassageOnPage',
    summary: 'Where a passage (a source’s excerpt) is drawn on a page, for its owner',
    description:
      'Areas of the page image (fractions of its width and height from its top left, the same at every `width`), one ' +
      'per line of the passage, so that a client can mark the cited words on the page. Words are compared by their ' +
      'letters and digits; an excerpt’s parts between "…" are found one by one. A scanned page or a photo is read by ' +
      'OCR again (1-5 s the first time). Answers carry `Cache-Control: private, max-age=3600`.',
    pathParameters: { id: 'Identifier of the ingest job (the document)', page: 'The 1-based page, a whole number' },
    query: passageQuery,
    responses: {
      200: json('The areas', r.PassageAreas),
      400: json(
        '`page` is not a whole number from 1, or `text` is missing, given twice, blank ("text: the passage to find must not be blank") or over 1000 characters',
        r.ErrorMessage,
      ),
      404: json(
        'The job does not exist or belongs to another user ("Ingest job not found"), or the document has no such page ("Page not found")',
        v.union([r.IngestJobNotFound, r.PageNotFound]),
      ),
      500: FAILED, 503: UNAVAILABLE,
    },
  },
  {
    method: 'put', path: '/uploads/{key}', operationId: 'localUpload', public: true,
    summary: 'Upload target of the embedded file store’s signed URLs (only when no S3 server is configured)',
    description:
      'The `signedUrl` of POST /api/v1/ingest/upload/url points here when files are kept on local disk; use it as ' +
      'given. The query string (expires, type, size, sig) is the authorisation; `key` keeps its slashes.',
    pathParameters: { key: 'The object key, slashes included' }, multiSegmentParameter: 'key', query: signedUploadQuery,
    rawBody: { mediaTypes: ['application/pdf', 'image/jpeg', 'image/jpg'], description: 'The file, exactly the declared size and type' },
    responses: {
      200: json('Stored', r.UploadAccepted),
      400: json('A body shorter than declared, an interrupted upload, or an invalid key', r.ErrorMessage),
      403: json('A missing, malformed, tampered or expired signature', r.ErrorMessage),
      409: json('The URL was used already: a signed upload is single-use', r.ErrorMessage),
      413: json('A body larger than declared, or than 50 MB', r.ErrorMessage),
      415: json('A Content-Type other than the one signed', r.ErrorMessage),
      500: FAILED,
      507: json('DATA_DIR’s free space is below DISK_RESERVE_BYTES, or the disk filled up while the file was written (nothing is kept; the URL can be used again once space is freed)', r.ErrorMessage),
    },
  },
];
