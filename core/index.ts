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
import type { Logger } from './ports/logger.js';
import type { SessionRepo } from './ports/session-repo.js';
import type { VectorIndex } from './ports/vector-index.js';
import type { ChunkingOptions } from './rag/chunking.js';
import { AskQuestion, type RetrievalSettings } from './use-cases/ask-question.js';
import { ClearChat } from './use-cases/clear-chat.js';
import { CreateSession } from './use-cases/create-session.js';
import { CreateUploadUrl } from './use-cases/create-upload-url.js';
import { DeleteSession } from './use-cases/delete-session.js';
import { GetChatHistory } from './use-cases/get-chat-history.js';
import { GetIngestJob } from './use-cases/get-ingest-job.js';
import { ListSessions } from './use-cases/list-sessions.js';
import { RenameSession } from './use-cases/rename-session.js';
import { RunIngestion } from './use-cases/run-ingestion.js';
import { StartIngestion } from './use-cases/start-ingestion.js';

export interface DocChatPorts {
  sessions: SessionRepo;
  chats: ChatRepo;
  jobs: IngestJobRepo;
  blobs: BlobStore;
  /** One lexical index at least; a dense one too when an embedder is given (results are fused). */
  indexes: VectorIndex[];
  reader: DocumentReader;
  llm: Llm;
  embedder?: Embedder;
  queue: JobQueue;
  ids: IdGenerator;
  clock: Clock;
  logger: Logger;
  retrieval?: Partial<RetrievalSettings>;
  chunking?: ChunkingOptions;
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
  getIngestJob: GetIngestJob;
  askQuestion: AskQuestion;
}

export function createDocChat(ports: DocChatPorts): DocChat {
  const { sessions, chats, jobs, blobs, indexes, reader, llm, embedder, queue, ids, clock, logger } = ports;
  return {
    createSession: new CreateSession(sessions, ids, clock),
    listSessions: new ListSessions(sessions),
    renameSession: new RenameSession(sessions),
    deleteSession: new DeleteSession({ sessions, chats, jobs, indexes, blobs }),
    getChatHistory: new GetChatHistory(sessions, chats),
    clearChat: new ClearChat(sessions, chats),
    createUploadUrl: new CreateUploadUrl(blobs, ids),
    startIngestion: new StartIngestion({ sessions, jobs, blobs, queue, ids, clock }),
    runIngestion: new RunIngestion({ jobs, blobs, reader, indexes, embedder, clock, logger, chunking: ports.chunking }),
    getIngestJob: new GetIngestJob(jobs),
    askQuestion: new AskQuestion({ sessions, chats, jobs, indexes, llm, embedder, ids, clock, retrieval: ports.retrieval }),
  };
}

export * from './domain/errors.js';
export * from './domain/model.js';
export type * from './ports/index.js';
export { AskQuestion, ClearChat, CreateSession, CreateUploadUrl, DeleteSession, GetChatHistory, GetIngestJob };
export { ListSessions, RenameSession, RunIngestion, StartIngestion };
export { SIZE_ERROR, TYPE_ERROR } from './use-cases/create-upload-url.js';

// The defaults and building blocks an outside adapter or embedder needs, so that no one imports from core/'s files.
export { DEFAULT_RETRIEVAL, MAX_QUESTION_CHARS, type AskQuestionResult, type RetrievalSettings } from './use-cases/ask-question.js';
export type { UploadData } from './use-cases/create-upload-url.js';
export { INGEST_JOB_NOT_FOUND } from './use-cases/get-ingest-job.js';
export { MAX_LABEL_LENGTH } from './domain/validation.js';
export { contentTypeFromName, isAllowedContentType, sniffContentType } from './domain/uploads.js';
export * from './rag/chunking.js';
export * from './rag/fusion.js';
export * from './rag/prompt.js';
export * from './rag/text.js';
