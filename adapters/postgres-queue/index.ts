/** `doc-chat/adapters/postgres-queue`: a JobQueue that several processes share through a table on PostgreSQL. */
export { PostgresJobQueue, type PostgresJobQueueOptions } from './postgres-job-queue.js';
