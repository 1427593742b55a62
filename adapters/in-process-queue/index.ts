/** `doc-chat/adapters/in-process-queue`: a JobQueue running ingest jobs in this process. */
export { InProcessJobQueue } from './in-process-job-queue.js';
