import type { Answer, AnswerRequest, Llm } from '../../core/ports/llm.js';
import type { HitReranker } from '../../core/ports/hit-reranker.js';
import type { ChunkHit } from '../../core/ports/vector-index.js';
import { answerInSentences } from '../../core/rag/answer-stream.js';
import type { AnswerPool } from './answer-pool.js';

/**
 * The extractive answerer, run on the pool's threads: the answer request (question, packed passages, history) goes
 * to a worker as plain data, its answer comes back. The same answers as on the request thread (the same code runs).
 * Streamed, the answer is computed whole and sent in sentences; aborting the signal frees the queue slot or thread.
 */
export class PooledLlm implements Llm {
  constructor(private readonly pool: AnswerPool) {}

  answer(request: AnswerRequest, signal?: AbortSignal): Promise<Answer> {
    return this.pool.run<Answer>({ kind: 'answer', request }, signal);
  }

  answerStream(request: AnswerRequest, signal: AbortSignal): AsyncGenerator<string, Answer, undefined> {
    return answerInSentences(() => this.answer(request, signal), signal);
  }
}

/** core/rag/rerank.ts on the pool's threads: the hits go out, their new order comes back. */
export class PooledReranker implements HitReranker {
  constructor(private readonly pool: AnswerPool) {}

  async rerank(query: string, hits: ChunkHit[], signal?: AbortSignal): Promise<ChunkHit[]> {
    if (hits.length <= 1) return hits;
    const order = await this.pool.run<number[]>({ kind: 'rerank', query, hits }, signal);
    return order.map((i) => hits[i]);
  }
}
