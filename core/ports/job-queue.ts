/** Runs ingestion jobs in the background, in order, a few at a time. */
export interface JobQueue {
  enqueue(jobId: string): void;
}
