/** `doc-chat/adapters/pg-boss`: a JobQueue that several processes share through pg-boss on PostgreSQL. */
export { PgBossJobQueue, type PgBossJobQueueOptions } from './pg-boss-job-queue.js';
