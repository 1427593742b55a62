import * as v from 'valibot';
import { addDocumentBody, searchQuery } from '../schemas.js';
import * as lib from '../library-response-schemas.js';
import * as r from '../response-schemas.js';
import type { ApiOperation, ApiResponseSpec } from './operations.js';

/** The answers operations.ts shares with these routes (passed in: that module lists these operations). */
export interface SharedResponses {
  json: (description: string, schema: ApiResponseSpec['json'] & object) => ApiResponseSpec;
  BAD_REQUEST: ApiResponseSpec;
  BODY_TOO_LARGE: ApiResponseSpec;
  SESSION_NOT_FOUND: ApiResponseSpec;
  FAILED: ApiResponseSpec;
  UNAVAILABLE: ApiResponseSpec;
  OUT_OF_SPACE: ApiResponseSpec;
}

/** The document library (issue 50) and the search over sessions and messages. */
export function libraryOperations(s: SharedResponses): ApiOperation[] {
  return [
    {
      method: 'get', path: '/api/v1/documents', operationId: 'listLibrary',
      summary: 'The caller’s documents across sessions, one per content, with the sessions holding each',
      description:
        'Completed documents only, deduplicated by their bytes’ sha256 (the document’s `id`), most recently added first; ' +
        'at most 2000 (`truncated` says when more were left out).',
      responses: { 200: s.json('The library', lib.DocumentLibrary), 500: s.FAILED, 503: s.UNAVAILABLE },
    },
    {
      method: 'post', path: '/api/v1/session/{sessionId}/documents', operationId: 'addLibraryDocument',
      summary: 'Add a document of the library to a session, without uploading or reading it again',
      description:
        'The chunks of a session holding the document are copied into this one, as a new completed ingest job ' +
        '(`copiedFrom` the job copied); the stored file is shared. Removing the document from one session leaves the ' +
        'others. A session that holds the content already answers 200 with its job, nothing added.',
      pathParameters: { sessionId: 'Identifier of the session to add the document to' },
      body: addDocumentBody,
      responses: {
        201: s.json('Added: the new job, completed', lib.AddedDocument),
        200: s.json('The session held the document already: its job', lib.AddedDocument),
        400: s.BAD_REQUEST,
        404: s.json(
          'The session does not exist or is another user’s ("Session not found"), or no session of the caller holds the document ("Document not found")',
          v.union([r.SessionNotFound, r.DocumentNotFound]),
        ),
        413: s.BODY_TOO_LARGE, 500: s.FAILED,
        503: s.json('The records or an index did not answer; nothing was added, repeat the call', r.ServiceUnavailable),
        507: s.OUT_OF_SPACE,
      },
    },
    {
      method: 'get', path: '/api/v1/search', operationId: 'searchRecords',
      summary: 'Search the caller’s sessions (by name) and messages (by text)',
      description: 'Every content word of `q` must be there (stemmed: "revenues" finds "revenue"); best matches first, at most 20 of each.',
      query: searchQuery,
      responses: {
        200: s.json('The matching sessions and messages', lib.RecordSearchResults),
        400: s.json('`q` is missing, given twice, blank, or over 200 characters', r.ErrorMessage),
        500: s.FAILED, 503: s.UNAVAILABLE,
      },
    },
  ];
}
