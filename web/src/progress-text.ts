// '.js': the unit tests (test/unit/web) compile this file under the service's Node resolution too.
import type { IngestJob } from './types.js';

/** The API's stages (docs/api.md, ingest job) in a reader's words. */
const STAGE_WORDS: Record<string, string> = {
  reading: 'reading the file',
  extracting: 'extracting text',
  recognizing: 'reading a scanned page (OCR)',
  chunking: 'splitting into passages',
  embedding: 'indexing',
  indexing: 'indexing',
};

/**
 * What a running job is doing, as a person reads it: "extracting page 52 of 194", "indexing", with the time left once
 * it can be estimated. The page count is known once the job says so (`pages`); until then the page alone.
 */
export function progressText(job: IngestJob, now = Date.now()): string {
  if (job.status === 'queued') return 'waiting its turn';
  if (job.status !== 'processing') return job.status;
  const stage = job.stage ?? 'reading';
  let words = STAGE_WORDS[stage] ?? stage;
  const of = job.pages !== undefined ? ` of ${job.pages}` : '';
  if (stage === 'extracting' && job.readingPage !== undefined) words = `extracting page ${job.readingPage}${of}`;
  if (stage === 'recognizing') words = job.readingPage !== undefined ? `reading scanned page ${job.readingPage}${of} (OCR)` : 'reading a scanned page (OCR)';
  const left = timeLeft(job, now);
  return left ? `${words}, ${left}` : words;
}

/**
 * Seconds left from the pace so far (progress over the time since the job was made), said only once there is a pace to
 * go by: at least 10 % done and 3 s spent. A job with little left says "almost done".
 */
export function timeLeft(job: IngestJob, now = Date.now()): string | undefined {
  const done = job.progress ?? 0;
  const spent = (now - Date.parse(job.createdAt)) / 1000;
  if (!(done >= 0.1) || done >= 1 || !(spent >= 3)) return undefined;
  const seconds = (spent / done) * (1 - done);
  if (seconds < 5) return 'almost done';
  if (seconds < 90) return `about ${Math.round(seconds / 5) * 5} s left`;
  return `about ${Math.round(seconds / 60)} min left`;
}
