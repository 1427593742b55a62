import { createDocChat, type DocChat } from '../../core/index.js';
import type { Llm } from '../../core/ports/llm.js';
import type { VectorIndex } from '../../core/ports/vector-index.js';
import { ExtractiveAnswerer } from '../../adapters/extractive/extractive-answerer.js';
import { FakeDocumentReader } from '../fakes/fake-document-reader.js';
import { ManualClock, RecordingLogger, SequentialIds } from '../fakes/fixed-clock-and-ids.js';
import { InMemoryBlobStore } from '../fakes/in-memory-blob-store.js';
import { InMemoryChatRepo, InMemoryIngestJobRepo, InMemorySessionEraser, InMemorySessionRepo } from '../fakes/in-memory-repos.js';
import { InMemoryUploadRepo } from '../fakes/in-memory-upload-repo.js';
import type { UploadLimits } from '../../core/ports/upload-repo.js';
import { InMemoryVectorIndex } from '../fakes/in-memory-vector-index.js';
import type { Embedder } from '../../core/ports/embedder.js';

/** The core wired to in-memory fakes, with a queue the test drains by hand. */
export function coreFixture(
  options: { llm?: Llm; indexes?: VectorIndex[]; embedder?: Embedder; uploadLimits?: UploadLimits; singleUseUploads?: boolean } = {},
) {
  const clock = new ManualClock();
  const sessions = new InMemorySessionRepo();
  const chats = new InMemoryChatRepo();
  const jobs = new InMemoryIngestJobRepo();
  const uploads = new InMemoryUploadRepo();
  const eraser = new InMemorySessionEraser({ sessions, chats, jobs, uploads });
  const blobs = new InMemoryBlobStore({ clock, singleUseUploads: options.singleUseUploads });
  const index = new InMemoryVectorIndex({ kind: 'lexical' });
  const indexes = options.indexes ?? [index];
  const reader = new FakeDocumentReader();
  const logger = new RecordingLogger();
  const queued: string[] = [];
  const docChat: DocChat = createDocChat({
    sessions, chats, jobs, blobs, uploads, eraser, indexes, reader,
    uploadLimits: options.uploadLimits,
    llm: options.llm ?? new ExtractiveAnswerer(),
    embedder: options.embedder,
    queue: { enqueue: (id) => void queued.push(id) },
    ids: new SequentialIds('id'),
    clock,
    logger,
  });
  return {
    docChat, sessions, chats, jobs, uploads, eraser, blobs, clock, index, indexes, reader, logger, queued,
    /** Runs every queued job to its end. */
    async drain(): Promise<void> {
      while (queued.length > 0) await docChat.runIngestion.execute(queued.shift()!);
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
