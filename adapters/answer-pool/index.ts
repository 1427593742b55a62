/** `doc-chat/adapters/answer-pool`: questions' CPU work (re-ranking, the extractive answer) on worker threads. */
export { AnswerPool, AnswerQueueFullError, defaultPoolThreads, type AnswerPoolOptions, type AnswerPoolStats } from './answer-pool.js';
export { PooledGroundedAnswerer, PooledLlm, PooledReranker } from './pooled-llm.js';
