import { setTimeout as sleep } from 'node:timers/promises';
import { CliError } from './cli-error.js';
import { collectDocuments, type DocumentFile } from './documents.js';
import { ApiError, type DocChatClient, type JobJson } from './doc-chat-client.js';
import { formatBytes, type Progress } from './progress.js';
import { resolveSession } from './sessions.js';

export interface IngestOptions {
  session: string;
  tags: Record<string, string>;
  progress: Progress;
  /** How often a running job's status is read. */
  pollMs: number;
}

interface Started {
  doc: DocumentFile;
  jobId: string;
}

/**
 * `doc-chat ingest`: uploads each document through a signed URL, starts its ingestion, then follows every job to
 * completed or failed. Resolves to the number of documents that were not ingested.
 */
export async function ingest(client: DocChatClient, paths: string[], options: IngestOptions): Promise<number> {
  const { progress } = options;
  try {
    const { documents, skipped } = collectDocuments(paths);
    for (const name of skipped) progress.line(`skipped ${name} (only .pdf, .jpg and .jpeg files are ingested)`);
    if (documents.length === 0) throw new CliError(`no .pdf, .jpg or .jpeg file in ${paths.join(', ')}`);

    const { session, created } = await resolveSession(client, options.session, { createMissing: true });
    if (created) progress.line(`created session "${session.label}" (${session.id})`);

    const { started, failed } = await uploadAll(client, documents, session.id, options);
    const jobs = await followJobs(client, started, options);
    progress.stop();
    const completed = jobs.filter((j) => j.status === 'completed').length;
    const notIngested = failed + jobs.length - completed;
    progress.line(
      `${completed} of ${documents.length} ingested into session "${session.label}" (${session.id})` +
        `${notIngested > 0 ? `, ${notIngested} failed` : ''}${skipped.length > 0 ? `, ${skipped.length} skipped` : ''}`,
    );
    return notIngested;
  } finally {
    // Also on an error, so the terminal gets its cursor back before the message.
    progress.stop();
  }
}

async function uploadAll(client: DocChatClient, documents: DocumentFile[], sessionId: string, options: IngestOptions) {
  const { progress } = options;
  const totalBytes = documents.reduce((sum, d) => sum + d.size, 0);
  const overall = progress.bar(`uploading ${documents.length} file${documents.length === 1 ? '' : 's'}`, totalBytes, 'bytes');
  const started: Started[] = [];
  let failed = 0;
  let before = 0;
  for (const doc of documents) {
    const bar = progress.bar(doc.display, doc.size, 'bytes');
    try {
      const upload = await client.uploadUrl(doc.filename, doc.contentType, doc.size);
      await client.put(upload, doc.file, doc.contentType, doc.size, (sent) => {
        bar.update(sent);
        overall.update(before + sent);
      });
      started.push({ doc, jobId: await client.startIngestion(upload.key, doc.filename, sessionId, options.tags) });
      progress.line(`uploaded ${doc.display} (${formatBytes(doc.size)})`);
    } catch (error) {
      // A file the service refuses (too large, wrong type, empty) fails alone; a refused token or an unreachable
      // or failing server ends the command.
      if (!(error instanceof ApiError) || error.status === 401 || error.status >= 500) throw error;
      failed += 1;
      progress.line(`${doc.display}: not uploaded: ${error.serverMessage}`);
    } finally {
      bar.done();
      before += doc.size;
      overall.update(before);
    }
  }
  overall.done();
  return { started, failed };
}

async function followJobs(client: DocChatClient, started: Started[], options: IngestOptions): Promise<JobJson[]> {
  const { progress } = options;
  const finished: JobJson[] = [];
  const overall = started.length > 0 ? progress.bar('processing', started.length * 100, 'percent') : undefined;
  const bars = new Map<string, ReturnType<Progress['bar']>>();
  let pending = started;
  while (pending.length > 0) {
    const still: Started[] = [];
    let sum = finished.length * 100;
    for (const item of pending) {
      const job = await client.job(item.jobId);
      if (job.status === 'completed' || job.status === 'failed') {
        bars.get(item.jobId)?.done();
        finished.push(job);
        sum += 100;
        progress.line(outcomeLine(item.doc, job));
        continue;
      }
      still.push(item);
      const percent = Math.round((job.progress ?? 0) * 100);
      sum += percent;
      if (job.status === 'processing') {
        if (!bars.has(item.jobId)) bars.set(item.jobId, progress.bar(item.doc.display, 100, 'percent'));
        bars.get(item.jobId)!.update(percent, job.stage ?? job.status);
      }
    }
    overall?.update(sum, `${finished.length}/${started.length} done`);
    pending = still;
    if (pending.length > 0) await sleep(options.pollMs);
  }
  overall?.done();
  return finished;
}

/** "x.pdf: completed, 5 pages, 12 chunks" or "x.pdf: failed: <the service's reason>". */
function outcomeLine(doc: DocumentFile, job: JobJson): string {
  if (job.status === 'failed') return `${doc.display}: failed: ${job.error ?? 'no reason given'}`;
  const counts = [job.pages !== undefined && `${job.pages} page${job.pages === 1 ? '' : 's'}`, job.chunks !== undefined && `${job.chunks} chunk${job.chunks === 1 ? '' : 's'}`];
  const reused = job.reusedFrom ? ' (same content as an earlier upload: its chunks are reused)' : '';
  return `${doc.display}: completed${counts.filter(Boolean).map((c) => `, ${c}`).join('')}${reused}`;
}
