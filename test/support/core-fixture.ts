import type { AcceptedTypes } from '../../core/domain/content-types.js';
import { createDocChat, type DocChat } from '../../core/index.js';
import type { IngestRetrySettings } from '../../core/use-cases/run-ingestion.js';
import type { AttachmentSettings } from '../../core/use-cases/mail-attachments.js';
import type { Llm } from '../../core/ports/llm.js';
import type { QueryPlanner } from '../../core/ports/query-planner.js';
import type { DocumentClassifier } from '../../core/ports/document-classifier.js';
import type { HitReranker } from '../../core/ports/hit-reranker.js';
import type { VectorIndex } from '../../core/ports/vector-index.js';
import { ExtractiveAnswerer } from '../../adapters/extractive/extractive-answerer.js';
import { FakeDocumentReader } from '../fakes/fake-document-reader.js';
import { ManualClock, RecordingLogger, SequentialIds } from '../fakes/fixed-clock-and-ids.js';
import { InMemoryRecordSearch } from '../fakes/in-memory-record-search.js';
import { InMemoryBlobStore } from '../fakes/in-memory-blob-store.js';
import { InMemoryChatRepo, InMemoryIngestJobRepo, InMemorySessionEraser, InMemorySessionRepo } from '../fakes/in-memory-repos.js';
import { InMemoryUploadRepo } from '../fakes/in-memory-upload-repo.js';
import type { UploadLimits } from '../../core/ports/upload-repo.js';
import { InMemoryVectorIndex } from '../fakes/in-memory-vector-index.js';
import type { DocumentReader } from '../../core/ports/document-reader.js';
import type { Embedder } from '../../core/ports/embedder.js';
import { JobStoppedError } from '../../core/domain/errors.js';
import type { JobQueue, QueuedJob } from '../../core/ports/job-queue.js';
import type { StorageSpace } from '../../core/ports/storage-space.js';

/**
 * A JobQueue the test drains by hand: enqueued ids wait in `queued`; cancel drops a waiting one or aborts the
 * running one's signal, as the real queue does.
 */
class ManualJobQueue implements JobQueue {
  readonly queued: string[] = [];
  readonly running = new Map<string, AbortController>();

  enqueue(job: QueuedJob): void {
    if (!this.queued.includes(job.id) && !this.running.has(job.id)) this.queued.push(job.id);
  }

  cancel(jobId: string): void {
    this.running.get(jobId)?.abort(new JobStoppedError('cancelled'));
    const at = this.queued.indexOf(jobId);
    if (at >= 0) this.queued.splice(at, 1);
  }

  /** Runs the next waiting job with `run` to its end; false when none waits. */
  async runNext(run: (jobId: string, signal: AbortSignal) => Promise<void>): Promise<boolean> {
    const jobId = this.queued.shift();
    if (jobId === undefined) return false;
    const controller = new AbortController();
    this.running.set(jobId, controller);
    try {
      await run(jobId, controller.signal);
    } finally {
      this.running.delete(jobId);
    }
    return true;
  }
}

/** The core wired to in-memory fakes, with a queue the test drains by hand. */
export function coreFixture(
  options: {
    llm?: Llm;
    reranker?: HitReranker;
    indexes?: VectorIndex[];
    embedder?: Embedder;
    uploadLimits?: UploadLimits;
    singleUseUploads?: boolean;
    jobs?: InMemoryIngestJobRepo;
    planners?: QueryPlanner[];
    /** Tells each document's kind at ingestion (none by default). */
    classifier?: DocumentClassifier;
    /** Another reader instead of the FakeDocumentReader (`reader` in the result stays the unused fake). */
    reader?: DocumentReader;
    /** Added to the retry settings (backoff 1 ms). */
    ingestRetry?: Partial<IngestRetrySettings>;
    space?: StorageSpace;
    /** The file types uploads may have (default: the contract's three). */
    acceptedTypes?: AcceptedTypes;
    mailAttachments?: Partial<AttachmentSettings>;
  } = {},
) {
  const clock = new ManualClock();
  const sessions = new InMemorySessionRepo();
  const chats = new InMemoryChatRepo(sessions);
  const jobs = options.jobs ?? new InMemoryIngestJobRepo();
  const uploads = new InMemoryUploadRepo();
  const eraser = new InMemorySessionEraser({ sessions, chats, jobs, uploads });
  const blobs = new InMemoryBlobStore({ clock, singleUseUploads: options.singleUseUploads });
  const index = new InMemoryVectorIndex({ kind: 'lexical' });
  const indexes = options.indexes ?? [index];
  const reader = new FakeDocumentReader();
  const logger = new RecordingLogger();
  const queue = new ManualJobQueue();
  const queued = queue.queued;
  const docChat: DocChat = createDocChat({
    sessions, chats, jobs, blobs, uploads, eraser, indexes, reader: options.reader ?? reader,
    records: new InMemoryRecordSearch(sessions, chats),
    uploadLimits: options.uploadLimits,
    llm: options.llm ?? new ExtractiveAnswerer(),
    reranker: options.reranker,
    embedder: options.embedder,
    planners: options.planners,
    classifier: options.classifier,
    space: options.space,
    acceptedTypes: options.acceptedTypes,
    mailAttachments: options.mailAttachments,
    queue,
    ids: new SequentialIds('id'),
    clock,
    logger,
    // Retries without the production waits.
    ingestRetry: { backoffMs: 1, ...options.ingestRetry },
  });
  return {
    docChat, sessions, chats, jobs, uploads, eraser, blobs, clock, index, indexes, reader, logger, queue, queued,
    /** Runs every queued job to its end, one at a time, each with the signal `cancel` aborts. */
    async drain(): Promise<void> {
      while (await queue.runNext((id, signal) => docChat.runIngestion.execute(id, signal)));
    },
    /** A session, an uploaded text "document" and a started job. */
    async sessionWithUpload(userId: string, text: string, filename = 'doc.pdf', tags: Record<string, string> = {}) {
      const session = await docChat.createSession.execute({ userId, label: 'docs' });
      const upload = await docChat.createUploadUrl.execute({ userId, filename, contentType: 'application/pdf', contentSize: Buffer.byteLength(text) });
      blobs.put(upload.key, text, 'application/pdf');
      const job = await docChat.startIngestion.execute({ userId, sessionId: session.id, key: upload.key, filename, tags });
      return { session, key: upload.key, job };
    },
  };
}
