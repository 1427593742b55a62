// doc-chat's core inside a plain Node program: SQLite records and FTS5 search, files on local disk, PDF text (and OCR
// of scanned pages) read in a child process, extractive answers (no model to run).
// Usage: node embed.mjs <file.pdf> "<question>" [data-directory]
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createDocChat } from 'doc-chat';
import { ChildProcessDocumentReader } from 'doc-chat/adapters/extraction';
import { ExtractiveAnswerer } from 'doc-chat/adapters/extractive';
import { InProcessJobQueue } from 'doc-chat/adapters/in-process-queue';
import { LocalBlobStore } from 'doc-chat/adapters/local-blob';
import { KyselyChatRepo, KyselyIngestJobRepo, KyselySessionRepo } from 'doc-chat/adapters/kysely';
import { openSqliteDatabase, SqliteFtsIndex, SqliteRecordSearch, SqliteSessionEraser, SqliteUploadRepo } from 'doc-chat/adapters/sqlite';
import { PinoLogger, RandomUuidGenerator, SystemClock } from 'doc-chat/adapters/system';

const [file, question, dataDir = 'doc-chat-data'] = process.argv.slice(2);
if (!file || !question) {
  console.error('usage: node embed.mjs <file.pdf> "<question>" [data-directory]');
  process.exit(2);
}

const database = openSqliteDatabase(path.join(dataDir, 'doc-chat.sqlite'));
const blobs = new LocalBlobStore({
  directory: path.join(dataDir, 'blobs'),
  publicUrl: 'http://localhost', // upload URLs are only used in-process here
  secret: 'replace with 16 or more random bytes',
});
const reader = new ChildProcessDocumentReader();
const logger = new PinoLogger({ level: 'warn' });
const queue = new InProcessJobQueue((jobId, signal) => docChat.runIngestion.execute(jobId, signal), { concurrency: 1 }, logger);
const docChat = createDocChat({
  sessions: new KyselySessionRepo(database.db),
  chats: new KyselyChatRepo(database.db),
  jobs: new KyselyIngestJobRepo(database.db),
  uploads: new SqliteUploadRepo(database),
  eraser: new SqliteSessionEraser(database), records: new SqliteRecordSearch(database),
  blobs,
  indexes: [new SqliteFtsIndex(database)],
  reader,
  llm: new ExtractiveAnswerer(),
  queue,
  ids: new RandomUuidGenerator(),
  clock: new SystemClock(),
  logger,
});

try {
  const userId = 'me';
  const session = await docChat.createSession.execute({ userId, label: 'Embedded' });

  // The service's clients PUT the file to a signed URL; in-process, the same check-and-store is called directly.
  const bytes = await readFile(file);
  const filename = path.basename(file);
  const contentType = 'application/pdf';
  const upload = await docChat.createUploadUrl.execute({ userId, filename, contentType, contentSize: bytes.length });
  const query = Object.fromEntries(new URL(upload.signedUrl).searchParams);
  const stored = await blobs.acceptUpload({ key: upload.key, query, contentType, contentLength: bytes.length, body: Readable.from([bytes]) });
  if (stored.status !== 200) throw new Error(`upload refused: ${stored.error}`);

  const started = await docChat.startIngestion.execute({ userId, sessionId: session.id, key: upload.key, filename, tags: {} });
  await queue.whenIdle();
  const job = await docChat.getIngestJob.execute({ userId, jobId: started.id });
  if (job.status !== 'completed') throw new Error(`ingestion ${job.status}: ${job.error}`);
  console.log(`ingested ${filename}: ${job.pages} pages, ${job.chunks} chunks`);

  const { answer, sources } = await docChat.askQuestion.execute({ userId, sessionId: session.id, message: question });
  console.log(`answer: ${answer}`);
  for (const source of sources) console.log(`source: ${source.filename} page ${source.page}: ${source.excerpt}`);
} finally {
  await reader.close();
  await database.close();
}
