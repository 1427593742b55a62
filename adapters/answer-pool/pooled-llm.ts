import type { GroundedAnswer, GroundedAnswerer, GroundedQuestion } from '../../core/ports/grounded-answerer.js';
import type { Answer, AnswerRequest, Llm } from '../../core/ports/llm.js';
import { DEFAULT_RETRIEVAL, type RetrievalSettings } from '../../core/use-cases/retrieve-and-answer.js';
import type { HitReranker, RerankOptions } from '../../core/ports/hit-reranker.js';
import type { ChunkHit } from '../../core/ports/vector-index.js';
import { answerInSentences } from '../../core/rag/answer-stream.js';
import type { AnswerPool } from './answer-pool.js';
import type { AnsweredQuestion } from './pool-task.js';

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

  async rerank(query: string, hits: ChunkHit[], { signal, documentPrior }: RerankOptions = {}): Promise<ChunkHit[]> {
    if (hits.length <= 1) return hits;
    const order = await this.pool.run<number[]>({ kind: 'rerank', query, hits, documentPrior }, signal);
    return order.map((i) => hits[i]);
  }
}

/**
 * A whole question on the pool's threads: retrieval (the thread's own read-only connection to the embedded lexical
 * index, re-ranking, fusion, packing) and the answer in one task, so that the request thread only reads the session
 * and history, and stores the exchange. The same code as on the request thread (RetrieveAndAnswer) with the same
 * settings, so the same answers. Questions of different users waiting at once are handed to threads in turns.
 * Needs a pool started with `sqliteFile`.
 */
export class PooledGroundedAnswerer implements GroundedAnswerer {
  private readonly settings: RetrievalSettings;

  /** `onSearch`: told how long each of a question's index searches took on its thread (the service's metrics). */
  constructor(private readonly pool: AnswerPool, options: { settings?: Partial<RetrievalSettings>; onSearch?: (seconds: number) => void } = {}) {
    this.settings = { ...DEFAULT_RETRIEVAL, ...options.settings };
    this.onSearch = options.onSearch;
  }

  private readonly onSearch?: (seconds: number) => void;

  async answer(question: GroundedQuestion, signal?: AbortSignal): Promise<GroundedAnswer> {
    const { searchSeconds, ...answered } = await this.pool.run<AnsweredQuestion>({ kind: 'question', question, settings: this.settings }, signal, question.userId);
    for (const seconds of searchSeconds) this.onSearch?.(seconds);
    return answered;
  }
}
