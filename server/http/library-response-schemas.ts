import * as v from 'valibot';
import { IngestJobJson } from './response-schemas.js';
import { text, timestamp, wholeNumber } from './schema-parts.js';

/** Response bodies of the document library and the record search (as response-schemas.ts: for the OpenAPI document). */

export const LibraryHolderJson = v.strictObject({
  sessionId: text('A session holding the document'),
  label: text('That session’s name'),
  ingestId: text('The session’s ingest job of the document (DELETE …/documents/{ingestId} removes it from that session only)'),
  addedAt: timestamp('When the document came to that session'),
});

export const LibraryDocumentJson = v.strictObject({
  id: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/), v.description('The content’s sha256 (hex): one entry per content')),
  filename: text('As the user first named it'),
  contentType: v.string(),
  pages: v.optional(wholeNumber('Pages read')),
  chunks: v.optional(wholeNumber('Chunks indexed')),
  sessions: v.pipe(v.array(LibraryHolderJson), v.description('The sessions holding it, in the order it came to them')),
});

export const DocumentLibrary = v.strictObject({
  data: v.pipe(v.array(LibraryDocumentJson), v.description('The caller’s documents (completed ingests), most recently added first')),
  truncated: v.pipe(v.boolean(), v.description('Whether documents were left out (past 2000)')),
});

export const AddedDocument = v.strictObject({ data: IngestJobJson });

export const RecordSearchResults = v.strictObject({
  data: v.strictObject({
    sessions: v.array(
      v.strictObject({ sessionId: v.string(), label: v.string(), createdAt: timestamp('ISO 8601 timestamp') }),
    ),
    messages: v.array(
      v.strictObject({
        messageId: v.string(),
        sessionId: v.string(),
        sessionLabel: v.string(),
        role: v.picklist(['user', 'assistant']),
        excerpt: text('The words around the match'),
        createdAt: timestamp('ISO 8601 timestamp'),
      }),
    ),
  }),
});
