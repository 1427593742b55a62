/**
 * Where the time of "separate filings" goes (issue 18): the FinanceBench filings, each its own upload, one user, one
 * session, ingested by the embedded stack built in this process with the service's defaults (2 jobs at once, 1 per
 * user, 2 extraction processes, 50-page ranges, PDFium, SQLite FTS5). Nothing in the product is changed to watch it:
 * the job queue's handler, the reader and the job repo are wrapped here, and the ranges each extraction process reads
 * are sampled from ChildProcessDocumentReader.rangesInFlight() every millisecond.
 *
 * Prints, per document: queued → job started → first range sent → reading → pages all read → job completed, and the
 * gaps between documents; per extraction process: busy time and its idle gaps, split by what the pipeline was doing
 * meanwhile (a job starting, a document's last range read by the other process, indexing tail, nothing queued).
 * `npx tsx bench/ingestion-timeline.ts [--files N] [--json out.json]`. Timings are indicative on a shared machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createDocChat } from '../core/index.js';
import type { DocumentReader } from '../core/ports/document-reader.js';
import type { IngestJobRepo } from '../core/ports/ingest-job-repo.js';
import { ChildProcessDocumentReader } from '../adapters/extraction/index.js';
import { ExtractiveAnswerer } from '../adapters/extractive/index.js';
import { InProcessJobQueue } from '../adapters/in-process-queue/index.js';
import { LocalBlobStore } from '../adapters/local-blob/index.js';
import { KyselyChatRepo, KyselyIngestJobRepo, KyselySessionRepo } from '../adapters/kysely/index.js';
import { openSqliteDatabase, SqliteFtsIndex, SqliteRecordSearch, SqliteSessionEraser, SqliteUploadRepo } from '../adapters/sqlite/index.js';
import { PinoLogger, RandomUuidGenerator, SystemClock } from '../adapters/system/index.js';
import { filingFiles, longRealPdfUnavailable, pageCount } from './long-real-pdf.js';

interface DocTimes {
  name: string;
  pages: number;
  enqueued?: number;
  jobStart?: number;
  readStart?: number;
  firstRange?: number;
  lastRangeEnd?: number;
  readEnd?: number;
  indexing?: number;
  jobEnd?: number;
}

interface RangeSpan {
  doc: number;
  pid: number;
  first: number;
  last: number;
  start: number;
  end: number;
}

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

async function main(): Promise<void> {
  const unavailable = longRealPdfUnavailable();
  if (unavailable) {
    console.log(`ingestion timeline: skipped (${unavailable})`);
    return;
  }
  const files = filingFiles().slice(0, Number(arg('--files') ?? Infinity));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-timeline-'));
  const database = openSqliteDatabase(path.join(dataDir, 'doc-chat.sqlite'));
  const blobs = new LocalBlobStore({ directory: path.join(dataDir, 'blobs'), publicUrl: 'http://localhost', secret: 'timeline-bench-secret-0123456789' });
  const reader = new ChildProcessDocumentReader({ poolSize: Number(process.env.EXTRACTION_WORKERS ?? 2) });
  const logger = new PinoLogger({ level: 'warn' });
  const t0 = performance.now();
  const now = () => performance.now() - t0;

  const docs = new Map<string, DocTimes>(); // by job id
  const docOf = (jobId: string) => docs.get(jobId) ?? docs.set(jobId, { name: '?', pages: 0 }).get(jobId)!;
  const readerDocs: DocTimes[] = []; // in the order reads started (the reader's document ids follow it)
  const jobs0 = new KyselyIngestJobRepo(database.db);
  const jobs = new Proxy(jobs0, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (property !== 'update' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return async (id: string, patch: Parameters<IngestJobRepo['update']>[1]) => {
        const doc = docs.get(id);
        if (doc && (patch.stage === 'indexing' || patch.stage === 'embedding')) doc.indexing ??= now();
        return target.update(id, patch);
      };
    },
  }) as IngestJobRepo;
  /** Jobs started and not yet reading: one user's jobs call read() in the order they started. */
  const toRead: DocTimes[] = [];
  const tracedReader: DocumentReader = {
    read: (request) => {
      const doc = toRead.shift()!;
      doc.readStart = now();
      readerDocs.push(doc);
      return reader.read(request).then((pages) => {
        doc.readEnd = now();
        return pages;
      });
    },
  };
  const queue = new InProcessJobQueue(
    async (jobId, signal, finishing) => {
      const doc = docOf(jobId); // a job may start before startIngestion returns its id
      doc.jobStart = now();
      toRead.push(doc);
      try {
        await docChat.runIngestion.execute(jobId, signal, finishing);
      } finally {
        doc.jobEnd = now();
      }
    },
    { concurrency: Number(process.env.INGEST_CONCURRENCY ?? 2), perUser: Number(process.env.INGEST_PER_USER_CONCURRENCY ?? 1) },
    logger,
  );
  const docChat = createDocChat({
    sessions: new KyselySessionRepo(database.db),
    chats: new KyselyChatRepo(database.db),
    jobs,
    uploads: new SqliteUploadRepo(database),
    eraser: new SqliteSessionEraser(database),
    records: new SqliteRecordSearch(database),
    blobs,
    indexes: [new SqliteFtsIndex(database)],
    reader: tracedReader,
    llm: new ExtractiveAnswerer(),
    queue,
    ids: new RandomUuidGenerator(),
    clock: new SystemClock(),
    logger,
  });

  // Ranges in flight, sampled: a range seen first at t, last at t', is counted as read from t to t'.
  const open = new Map<string, RangeSpan>();
  const spans: RangeSpan[] = [];
  const sampler = setInterval(() => {
    const t = now();
    const seen = new Set<string>();
    for (const range of reader.rangesInFlight()) {
      const key = `${range.document}:${range.id}`;
      seen.add(key);
      const span = open.get(key);
      if (span) span.end = t;
      else open.set(key, { doc: range.document, pid: range.pid ?? 0, first: range.firstPage, last: range.lastPage, start: t, end: t });
    }
    for (const [key, span] of open) if (!seen.has(key)) (spans.push(span), open.delete(key));
  }, 1);

  try {
    const userId = 'timeline';
    const session = await docChat.createSession.execute({ userId, label: 'separate filings' });
    const totalPages = files.reduce((sum, file) => sum + pageCount(file), 0);
    const started = performance.now();
    for (const file of files) {
      const bytes = fs.readFileSync(file);
      const filename = path.basename(file);
      const upload = await docChat.createUploadUrl.execute({ userId, filename, contentType: 'application/pdf', contentSize: bytes.length });
      const query = Object.fromEntries(new URL(upload.signedUrl).searchParams);
      const stored = await blobs.acceptUpload({ key: upload.key, query, contentType: 'application/pdf', contentLength: bytes.length, body: Readable.from([bytes]) });
      if (stored.status !== 200) throw new Error(`upload refused: ${stored.error}`);
      const job = await docChat.startIngestion.execute({ userId, sessionId: session.id, key: upload.key, filename, tags: {} });
      Object.assign(docOf(job.id), { name: filename, pages: pageCount(file), enqueued: now() });
    }
    await queue.whenIdle();
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    spans.push(...open.values());
    report(readerDocs, spans, totalPages, seconds);
    const out = arg('--json');
    if (out) fs.writeFileSync(out, JSON.stringify({ docs: readerDocs, spans }, null, 1));
  } finally {
    clearInterval(sampler);
    await reader.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const ms = (value: number) => `${value.toFixed(0)}`.padStart(6);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const mean = (values: number[]) => (values.length ? sum(values) / values.length : NaN);

function report(docs: DocTimes[], rawSpans: RangeSpan[], pages: number, seconds: number): void {
  // The reader numbers documents in the order read() was called, from a counter its ranges share: renumber 1, 2, …
  const order = [...new Set(rawSpans.map((s) => s.doc))].sort((a, b) => a - b);
  const spans = rawSpans.map((s) => ({ ...s, doc: order.indexOf(s.doc) + 1 }));
  console.log(`\ningestion timeline: ${docs.length} documents, ${pages} pages in ${seconds.toFixed(1)} s = ${(pages / seconds).toFixed(1)} pages/s (in-process, tsx; indicative)`);
  console.log('  ms from start: job start | read() called | first range | last range ends | read() resolves | indexing stage | job end');
  const firstRange = new Map<number, number>();
  const lastEnd = new Map<number, number>();
  for (const span of spans) {
    firstRange.set(span.doc, Math.min(firstRange.get(span.doc) ?? Infinity, span.start));
    lastEnd.set(span.doc, Math.max(lastEnd.get(span.doc) ?? 0, span.end));
  }
  docs.forEach((doc, i) => {
    doc.firstRange = firstRange.get(i + 1);
    doc.lastRangeEnd = lastEnd.get(i + 1);
  });
  for (const [i, doc] of docs.entries()) {
    const ranges = spans.filter((s) => s.doc === i + 1).map((s) => `${s.first}-${s.last}@${s.pid % 1000}:${(s.end - s.start).toFixed(0)}`).join(' ');
    console.log(`  ${String(i + 1).padStart(2)} ${doc.name.slice(0, 28).padEnd(28)} ${String(doc.pages).padStart(4)}p ${ms(doc.jobStart!)} ${ms(doc.readStart!)} ${ms(doc.firstRange ?? NaN)} ${ms(doc.lastRangeEnd ?? NaN)} ${ms(doc.readEnd!)} ${ms(doc.indexing ?? NaN)} ${ms(doc.jobEnd!)}  ${ranges}`);
  }
  const phase = (from: keyof DocTimes, to: keyof DocTimes) => mean(docs.map((d) => (d[to] as number) - (d[from] as number)));
  console.log('\n  mean per document (ms):');
  console.log(`    job start → read() called (blob read, hash, twin look-up, writes)  ${phase('jobStart', 'readStart').toFixed(1)}`);
  console.log(`    read() called → first range seen in a process (temp file, dispatch)  ${phase('readStart', 'firstRange').toFixed(1)}`);
  console.log(`    first range → last range ends (reading)                              ${phase('firstRange', 'lastRangeEnd').toFixed(1)}`);
  console.log(`    last range ends → read() resolves                                    ${phase('lastRangeEnd', 'readEnd').toFixed(1)}`);
  console.log(`    read() resolves → job end (indexing tail, completion write)          ${phase('readEnd', 'jobEnd').toFixed(1)}`);
  const gaps = docs.slice(1).map((d, i) => d.jobStart! - docs[i]!.jobEnd!);
  console.log(`    previous job end → next job start                                    ${mean(gaps).toFixed(1)}`);
  console.log(`    whole job (start → end)                                              ${phase('jobStart', 'jobEnd').toFixed(1)}`);

  // Per process: busy = its range spans; idle gaps (within its life: first range to last, as processes are recycled)
  // classified by what the pipeline did meanwhile.
  const pids = [...new Set(spans.map((s) => s.pid))];
  const end = Math.max(...docs.map((d) => d.jobEnd!));
  const begin = Math.min(...spans.map((s) => s.start));
  const allBusy = sum(spans.map((s) => s.end - s.start));
  console.log(`\n  extraction processes: ${pids.length} (replacements included), busy ${(allBusy / 1000).toFixed(2)} process-s from the first range (${begin.toFixed(0)} ms) to the last job's end (${end.toFixed(0)} ms): ${((100 * allBusy) / (2 * (end - begin))).toFixed(0)} % of 2 processes`);
  const totals: Record<string, number> = {};
  for (const pid of pids) {
    const mine = spans.filter((s) => s.pid === pid).sort((a, b) => a.start - b.start);
    const busy = sum(mine.map((s) => s.end - s.start));
    const from = mine[0]!.start;
    const to = pid === mine.at(-1)!.pid && mine.at(-1)!.end >= Math.max(...spans.map((s) => s.end)) - 1 ? end : mine.at(-1)!.end;
    const idle: Record<string, number> = {};
    let at = from;
    for (const span of [...mine, { start: to, end: to, doc: -1 } as RangeSpan]) {
      if (span.start > at) {
        const why = classify(at, span.start, docs, spans, pid);
        idle[why] = (idle[why] ?? 0) + span.start - at;
        totals[why] = (totals[why] ?? 0) + span.start - at;
      }
      at = Math.max(at, span.end);
    }
    console.log(`    pid ${pid}: ${(from / 1000).toFixed(1)}-${(to / 1000).toFixed(1)} s, busy ${(busy / 1000).toFixed(2)} s (${mine.length} ranges), idle ${(sum(Object.values(idle)) / 1000).toFixed(2)} s`);
  }
  console.log('  idle of all processes, by what the pipeline did meanwhile:');
  for (const [why, time] of Object.entries(totals)) console.log(`    ${(time / 1000).toFixed(2).padStart(6)} s  ${why}`);
}

/** What the pipeline did while `pid` was idle from `from` to `to` (by the gap's middle). */
function classify(from: number, to: number, docs: DocTimes[], spans: RangeSpan[], pid: number): string {
  const t = (from + to) / 2;
  if (t > Math.max(...docs.map((d) => d.lastRangeEnd ?? 0))) return 'after the last range';
  const otherReading = spans.some((s) => s.pid !== pid && s.start <= t && s.end >= t);
  if (!otherReading) return 'indexing tail / job end → next read() (no range to read)';
  // The other process reads; was this document's page count known yet (a second range handed out)?
  const doc = docs.findIndex((d) => (d.firstRange ?? Infinity) <= t && (d.lastRangeEnd ?? -Infinity) >= t);
  const starts = spans.filter((s) => s.doc === doc + 1).map((s) => s.start).sort((a, b) => a - b);
  if (doc >= 0 && (starts[1] === undefined || starts[1] > t)) return 'the document is opened by the other process (page count unknown)';
  return 'other process reads the last range(s) of the document';
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
