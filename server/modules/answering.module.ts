import { ContainerModule } from 'inversify';
import { AnswerPool, PooledGroundedAnswerer, PooledReranker } from '../../adapters/answer-pool/index.js';
import { DEFAULT_THREAD_NICE, DEFAULT_THREAD_TASKS, SHARED_DATABASE_THREAD_NICE, defaultPoolThreads } from '../../adapters/answer-pool/answer-pool.js';
import type { ServiceMetrics } from '../../adapters/prometheus/service-metrics.js';
import type { GroundedAnswerer } from '../../core/ports/grounded-answerer.js';
import type { HitReranker } from '../../core/ports/hit-reranker.js';
import { DATABASE_URL, sqliteFileOf } from './records.module.js';
import { optional, setting } from '../config/variables.js';
import { positiveInt, wholeNumber } from '../config/schemas.js';
import { TOKENS } from '../tokens.js';
import type { Lifecycle } from './lifecycle.js';
import type { ServiceModule } from './module.js';

const ANSWER_POOL_THREADS = setting('ANSWER_POOL_THREADS', wholeNumber(256), defaultPoolThreads(), 'Worker threads that re-rank hits and write extractive answers off the request thread (0: on the request thread)', { defaultText: 'cores − 1, at least 2' });
const ANSWER_QUEUE_LIMIT = setting('ANSWER_QUEUE_LIMIT', positiveInt(1_000_000), 64, 'Questions\' pool tasks that may wait for a thread; one more is refused with 503');
const ANSWER_THREAD_TASKS = setting('ANSWER_THREAD_TASKS', positiveInt(64), DEFAULT_THREAD_TASKS, 'Tasks handed to one answer thread at once: above 1 a thread starts its next task without waiting for the busy request thread (more answers under load, slower cheap requests on few cores)');
const ANSWER_THREAD_NICE = optional('ANSWER_THREAD_NICE', wholeNumber(19), 'How much lower the answer threads\' scheduling priority is than the request thread\'s (nice value added, Linux): cheap requests go first, answers take the CPU they leave (0: the same priority)', { defaultText: `${DEFAULT_THREAD_NICE} (embedded records), ${SHARED_DATABASE_THREAD_NICE} (PostgreSQL)` });
const MAX_QUESTIONS_PER_USER = setting('MAX_QUESTIONS_PER_USER', positiveInt(10_000), 8, 'Questions of one user in progress at once; one more is refused with 429 and Retry-After');

export interface AnsweringSection {
  /** Questions' CPU work off the request thread, and fair shares of it. */
  answering: { poolThreads: number; threadTasks: number; threadNice: number; queueLimit: number; perUserInFlight: number };
}

/**
 * The answer pool (adapters/answer-pool): worker threads for re-ranking and the extractive answer, so that a question
 * never holds up cheap requests. The models family answers through it when the answerer is the extractive one; on the
 * embedded stack (SQLite, lexical index only) a question's whole retrieval, answer and sources run there too.
 */
export const answeringModule: ServiceModule<AnsweringSection> = {
  family: 'answering',
  variables: [ANSWER_POOL_THREADS, ANSWER_THREAD_TASKS, ANSWER_THREAD_NICE, ANSWER_QUEUE_LIMIT, MAX_QUESTIONS_PER_USER],
  configure: (env) => ({
    answering: { poolThreads: env.read(ANSWER_POOL_THREADS), threadTasks: env.read(ANSWER_THREAD_TASKS), threadNice: env.read(ANSWER_THREAD_NICE, env.read(DATABASE_URL) ? SHARED_DATABASE_THREAD_NICE : DEFAULT_THREAD_NICE), queueLimit: env.read(ANSWER_QUEUE_LIMIT), perUserInFlight: env.read(MAX_QUESTIONS_PER_USER) },
  }),
  bindings(config) {
    const { poolThreads, threadTasks, threadNice, queueLimit } = config.answering;
    // Whole questions (retrieval too) on the threads where they can search the index themselves: the embedded SQLite
    // lexical index alone, answered by the extractive answerer. Elsewhere only re-ranking and the answer go there.
    const sqliteFile = config.records.kind === 'sqlite' && config.models.kind === 'extractive' && !config.embeddedDense ? sqliteFileOf(config.dataDir) : undefined;
    return new ContainerModule(({ bind }) => {
      if (poolThreads === 0) return;
      bind<AnswerPool>(TOKENS.AnswerPool).toDynamicValue((ctx) => {
        const metrics = ctx.get<ServiceMetrics>(TOKENS.Metrics);
        const pool = new AnswerPool({ threads: poolThreads, tasksPerThread: threadTasks, nice: threadNice, minThreads: 0, maxQueued: queueLimit, plugins: config.answerPlugins, sqliteFile, onQueueFull: () => metrics.questionRefusals.inc({ reason: 'queue_full' }) });
        metrics.watchPool('answer', () => ({ ...pool.stats(), handOffWaitSeconds: pool.handOffWaitSeconds() }));
        return pool;
      });
      if (sqliteFile) {
        bind<GroundedAnswerer>(TOKENS.GroundedAnswerer).toDynamicValue((ctx) => {
          const metrics = ctx.get<ServiceMetrics>(TOKENS.Metrics);
          // Its searches run on the threads: their durations come back with the answer, into the same series.
          return new PooledGroundedAnswerer(ctx.get<AnswerPool>(TOKENS.AnswerPool), { onSearch: (seconds) => metrics.searchDuration.observe({ index: 'lexical' }, seconds) });
        });
      }
      bind<HitReranker>(TOKENS.Reranker).toDynamicValue((ctx) => new PooledReranker(ctx.get<AnswerPool>(TOKENS.AnswerPool)));
      bind<Lifecycle>(TOKENS.Lifecycle).toDynamicValue((ctx) => {
        const pool = ctx.get<AnswerPool>(TOKENS.AnswerPool);
        return { name: 'answer pool', close: () => pool.close() };
      });
    });
  },
  started: (config) => ({ answerPoolThreads: config.answering.poolThreads }),
};
