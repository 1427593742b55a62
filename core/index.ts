/**
 * The library's public face: give it ports (your adapters, or the ones in adapters/), get the use cases.
 * Nothing here reads the environment or opens a connection.
 */
import type { BlobStore } from './ports/blob-store.js';
import type { ChatRepo } from './ports/chat-repo.js';
import type { Clock, IdGenerator } from './ports/clock-and-ids.js';
import type { DocumentReader } from './ports/document-reader.js';
import type { Embedder } from './ports/embedder.js';
import type { IngestJobRepo } from './ports/ingest-job-repo.js';
import type { JobQueue } from './ports/job-queue.js';
import type { Llm } from './ports/llm.js';
import type { QueryPlanner } from './ports/query-planner.js';
import type { DocumentClassifier } from './ports/document-classifier.js';
import type { RecordSearch } from './ports/record-search.js';
import type { GroundedAnswerer } from './ports/grounded-answerer.js';
import type { HitReranker } from './ports/hit-reranker.js';
import type { PageRenderer } from './ports/page-renderer.js';
import type { Logger } from './ports/logger.js';
import type { SessionEraser } from './ports/session-eraser.js';
import type { SessionRepo } from './ports/session-repo.js';
import type { StorageSpace } from './ports/storage-space.js';
import type { UploadLimits, UploadRepo } from './ports/upload-repo.js';
import type { VectorIndex } from './ports/vector-index.js';
import type { ChunkingOptions } from './rag/chunking.js';
import { AddLibraryDocument } from './use-cases/add-library-document.js';
import { AskQuestion, type RetrievalSettings } from './use-cases/ask-question.js';
import { ClearChat } from './use-cases/clear-chat.js';
import { CreateSession } from './use-cases/create-session.js';
import { CreateUploadUrl } from './use-cases/create-upload-url.js';
import { DeleteSession } from './use-cases/delete-session.js';
import { DeleteDocument } from './use-cases/delete-document.js';
import { ListDocuments } from './use-cases/list-documents.js';
import { ListLibrary } from './use-cases/list-library.js';
import { SearchRecords } from './use-cases/search-records.js';
import { FindPassageOnPage } from './use-cases/find-passage-on-page.js';
import { GetPageImage } from './use-cases/get-page-image.js';
import { GetPageText } from './use-cases/get-page-text.js';
import { GetChatHistory } from './use-cases/get-chat-history.js';
import { GetIngestJob } from './use-cases/get-ingest-job.js';
import { ListSessions } from './use-cases/list-sessions.js';
import { RenameSession } from './use-cases/rename-session.js';
import { ResumeIngestion } from './use-cases/resume-ingestion.js';
import { RunIngestion, type IngestRetrySettings } from './use-cases/run-ingestion.js';
import { MailAttachments, type AttachmentSettings } from './use-cases/mail-attachments.js';
import { StartIngestion } from './use-cases/start-ingestion.js';
import { SweepUploads } from './use-cases/sweep-uploads.js';
import { CONTRACT_TYPES, type AcceptedTypes } from './domain/content-types.js';

export interface DocChatPorts {
  sessions: SessionRepo;
  chats: ChatRepo;
  jobs: IngestJobRepo;
  blobs: BlobStore;
  /** Who each upload key was issued to. */
  uploads: UploadRepo;
  /** Full-text search over the user's sessions and messages, in the records' store. */
  records: RecordSearch;
  /** Deletes a session's records in one transaction. */
  eraser: SessionEraser;
  /** Per-user storage quota and pending-upload limit (default DEFAULT_UPLOAD_LIMITS). */
  uploadLimits?: UploadLimits;
  /** The file types uploads may have (default: the contract's three). */
  acceptedTypes?: AcceptedTypes;
  /** How many of a mail's attachments become documents, and how deep in mails attached to mails (default DEFAULT_ATTACHMENT_SETTINGS). */
  mailAttachments?: Partial<AttachmentSettings>;
  /** One lexical index at least; a dense one too when an embedder is given (results are fused). */
  indexes: VectorIndex[];
  reader: DocumentReader;
  /** Draws pages of stored documents as images and finds passages on them; without it every page is "Page not found". */
  renderer?: PageRenderer;
  llm: Llm;
  /** Re-orders lexical hits off the request thread when given (default: on it). */
  reranker?: HitReranker;
  /** Retrieval and the answer of a question elsewhere, e.g. on a worker thread (default: here). */
  grounded?: GroundedAnswerer;
  embedder?: Embedder;
  queue: JobQueue;
  ids: IdGenerator;
  clock: Clock;
  logger: Logger;
  retrieval?: Partial<RetrievalSettings>;
  /** Knowledge of kinds of documents the ask flow consults (plug-ins under adapters/); none by default. */
  planners?: QueryPlanner[];
  /** Tells each ingested document's kind (adapters/document-kinds); without it documents have none, unless tagged. */
  classifier?: DocumentClassifier;
  chunking?: ChunkingOptions;
  /** Retries, heartbeat and lease of ingest jobs (defaults: DEFAULT_INGEST_RETRY). */
  ingestRetry?: Partial<IngestRetrySettings>;
  /**
   * The free space of the storage written to: below its reserve new uploads and ingests are refused (507), and a full
   * disk is told apart (job failures, unsaved answers, deletions that use the space held back). Default: not watched.
   */
  space?: StorageSpace;
}

export interface DocChat {
  createSession: CreateSession;
  listSessions: ListSessions;
  renameSession: RenameSession;
  deleteSession: DeleteSession;
  getChatHistory: GetChatHistory;
  clearChat: ClearChat;
  createUploadUrl: CreateUploadUrl;
  startIngestion: StartIngestion;
  runIngestion: RunIngestion;
  resumeIngestion: ResumeIngestion;
  getIngestJob: GetIngestJob;
  listDocuments: ListDocuments;
  deleteDocument: DeleteDocument;
  listLibrary: ListLibrary;
  addLibraryDocument: AddLibraryDocument;
  searchRecords: SearchRecords;
  getPageImage: GetPageImage;
  /** A unit of a document without pages (a sheet, a slide) as text: a source's passage in its context. */
  getPageText: GetPageText;
  findPassageOnPage: FindPassageOnPage;
  askQuestion: AskQuestion;
  sweepUploads: SweepUploads;
  /** The file types uploads may have: the upload-URL route refuses others, clients show them. */
  acceptedTypes: AcceptedTypes;
}

export function createDocChat(ports: DocChatPorts): DocChat {
  const { sessions, chats, jobs, blobs, uploads, eraser, indexes, reader, llm, embedder, queue, ids, clock, logger, space } = ports;
  // Without a renderer no document has pages to show: every page is "Page not found".
  const renderer: PageRenderer = ports.renderer ?? { render: async () => null, findText: async () => null };
  return {
    createSession: new CreateSession(sessions, ids, clock),
    listSessions: new ListSessions(sessions),
    renameSession: new RenameSession(sessions),
    deleteSession: new DeleteSession({ sessions, jobs, uploads, eraser, indexes, blobs, clock, queue, space }),
    getChatHistory: new GetChatHistory(chats),
    clearChat: new ClearChat(sessions, chats, space),
    createUploadUrl: new CreateUploadUrl({ blobs, uploads, ids, clock, limits: ports.uploadLimits, space, accepted: ports.acceptedTypes }),
    startIngestion: new StartIngestion({ sessions, jobs, blobs, uploads, queue, ids, clock, space, kinds: ports.classifier?.kinds, accepted: ports.acceptedTypes }),
    runIngestion: new RunIngestion({
      jobs, blobs, uploads, reader, indexes, embedder, clock, logger, chunking: ports.chunking, retry: ports.ingestRetry, space, classifier: ports.classifier,
      attachments: new MailAttachments({
        jobs, blobs, uploads, queue, clock, logger, accepted: ports.acceptedTypes, limits: ports.uploadLimits, settings: ports.mailAttachments,
      }),
    }),
    resumeIngestion: new ResumeIngestion({ jobs, queue, clock, logger }),
    getIngestJob: new GetIngestJob(jobs),
    listDocuments: new ListDocuments(sessions, jobs),
    deleteDocument: new DeleteDocument({ sessions, jobs, uploads, eraser, indexes, blobs, clock, queue, space }),
    listLibrary: new ListLibrary(sessions, jobs),
    addLibraryDocument: new AddLibraryDocument({ sessions, jobs, indexes, clock, space }),
    searchRecords: new SearchRecords(ports.records),
    getPageImage: new GetPageImage({ jobs, blobs, renderer }),
    getPageText: new GetPageText({ jobs, blobs, reader }),
    findPassageOnPage: new FindPassageOnPage({ jobs, blobs, renderer }),
    askQuestion: new AskQuestion({
      sessions, chats, jobs, indexes, llm, embedder, reranker: ports.reranker, grounded: ports.grounded, ids, clock,
      retrieval: ports.retrieval, planners: ports.planners, logger, space,
    }),
    sweepUploads: new SweepUploads({ uploads, blobs, clock, logger }),
    acceptedTypes: ports.acceptedTypes ?? CONTRACT_TYPES,
  };
}

export * from './domain/errors.js';
export * from './domain/model.js';
export type * from './ports/index.js';
export { AskQuestion, ClearChat, CreateSession, CreateUploadUrl, DeleteSession, GetChatHistory, GetIngestJob };
export { DeleteDocument, FindPassageOnPage, GetPageImage, GetPageText, ListDocuments };
export { NO_PAGE_TEXT, type PageText } from './use-cases/get-page-text.js';
export { MAX_PASSAGE_CHARS } from './use-cases/find-passage-on-page.js';
export { MAX_PAGE_IMAGE_SIDE, PAGE_NOT_FOUND } from './use-cases/get-page-image.js';
export { DOCUMENT_NOT_FOUND } from './use-cases/delete-document.js';
export { AddLibraryDocument, ListLibrary, SearchRecords };
export { LIBRARY_DOCUMENT_LIMIT, type DocumentLibrary, type LibraryDocument, type LibraryHolder } from './use-cases/list-library.js';
export { EMPTY_SEARCH_QUERY, LONG_SEARCH_QUERY, MAX_SEARCH_QUERY_LENGTH, SEARCH_RESULTS_LIMIT } from './use-cases/search-records.js';
export { ListSessions, RenameSession, ResumeIngestion, RunIngestion, StartIngestion, SweepUploads };
export { DEFAULT_INGEST_RETRY, type IngestRetrySettings } from './use-cases/run-ingestion.js';
export { OUT_OF_DISK_SPACE_REASON } from './use-cases/ingest-failure-reasons.js';
export { UNWATCHED_SPACE } from './use-cases/space-reserve.js';
export { DEFAULT_UPLOAD_LIMITS, SIZE_ERROR, TYPE_ERROR } from './use-cases/create-upload-url.js';
export { KIND_TAG } from './use-cases/start-ingestion.js';
export { DEFAULT_ATTACHMENT_SETTINGS, MailAttachments, attachmentJobId, type AttachmentSettings } from './use-cases/mail-attachments.js';

// The defaults and building blocks an outside adapter or embedder needs, so that no one imports from core/'s files.
export { DEFAULT_RETRIEVAL, MAX_QUESTION_CHARS, type AskQuestionResult, type RetrievalSettings } from './use-cases/ask-question.js';
export type { UploadData } from './use-cases/create-upload-url.js';
export { INGEST_JOB_NOT_FOUND } from './use-cases/get-ingest-job.js';
export { MAX_LABEL_LENGTH } from './domain/validation.js';
export { contentTypeFromName, isAllowedContentType, sniffContentType } from './domain/uploads.js';
export { AcceptedTypes, CONTRACT_TYPES, DOCUMENT_TYPES, EXTRA_DOCUMENT_TYPES, baseContentType } from './domain/content-types.js';
export * from './rag/chunking.js';
export { followUpQuestion } from './rag/follow-up.js';
export { kindsHeld, servesHeldKind } from './rag/document-kinds.js';
export { intentKinds, intentsAsked, type QuestionIntent } from './rag/question-intents.js';
export * from './rag/fusion.js';
export * from './rag/layout.js';
export type { TagFilter, TagFilterInput } from './domain/tags.js';
export * from './rag/prompt.js';
export * from './rag/text.js';
export * from './rag/tables/figures.js';
export * from './rag/tables/table-arithmetic.js';
export * from './rag/tables/table-answer.js';
export * from './rag/tables/table-grid.js';
export * from './rag/tables/table-intents.js';
export * from './rag/tables/table-structure.js';
export { keysOf } from './rag/tables/table-cells.js';
export { rerank, RERANK_POOL } from './rag/rerank.js';
export { RetrieveAndAnswer, type RetrievalDeps } from './use-cases/retrieve-and-answer.js';
export { answerInSentences } from './rag/answer-stream.js';
export { passagePlace, placeInDocument, type PassagePlace } from './rag/place.js';
export { isOverviewQuestion, isRequestWord, overviewAnswer } from './rag/overview.js';
export { echoedHeading, echoesHeading } from './rag/question-headings.js';
