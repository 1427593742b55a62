import { ValidationError } from '../domain/errors.js';
import type { ChatMessage, Source } from '../domain/model.js';
import { loadOwnedSession } from '../domain/ownership.js';
import { tagFilters, type TagFilterInput } from '../domain/tags.js';
import type { ChatRepo } from '../ports/chat-repo.js';
import type { Clock, IdGenerator } from '../ports/clock-and-ids.js';
import type { Embedder } from '../ports/embedder.js';
import type { HitReranker } from '../ports/hit-reranker.js';
import type { IngestJobRepo } from '../ports/ingest-job-repo.js';
import type { Answer, AnswerRequest, HistoryTurn, Llm } from '../ports/llm.js';
import type { QueryPlanner } from '../ports/query-planner.js';
import type { SessionRepo } from '../ports/session-repo.js';
import type { ChunkHit, IndexQuery, VectorIndex } from '../ports/vector-index.js';
import { streamAnswer } from '../rag/answer-stream.js';
import { packContexts, toSources, type PackedContext } from '../rag/context.js';
import { reciprocalRankFusion, withPinned } from '../rag/fusion.js';
import { rerank, RERANK_POOL } from '../rag/rerank.js';
import { isOverviewQuestion } from '../rag/overview.js';
import { overviewContext } from './overview-context.js';

export interface AskQuestionDeps {
  sessions: SessionRepo;
  chats: ChatRepo;
  /** Which jobs are completed: only their chunks are cited. */
  jobs: IngestJobRepo;
  indexes: VectorIndex[];
  llm: Llm;
  embedder?: Embedder;
  /** Re-orders the lexical hits; by default core/rag/rerank.ts on this thread. */
  reranker?: HitReranker;
  ids: IdGenerator;
  clock: Clock;
  retrieval?: Partial<RetrievalSettings>;
  /** Knowledge of kinds of documents, asked in order (core/ports/query-planner.ts); none by default. */
  planners?: QueryPlanner[];
}

export interface RetrievalSettings {
  /** Hits asked of each index before fusion. */
  candidates: number;
  /** Passages given to the answerer. */
  passages: number;
  /** Character budget of those passages (fits the model's context). */
  contextChars: number;
  /** Recent messages given as history. */
  historyMessages: number;
  /** Sources returned with the answer. */
  sources: number;
}

export const DEFAULT_RETRIEVAL: RetrievalSettings = {
  candidates: 20,
  passages: 6,
  contextChars: 12_000,
  historyMessages: 6,
  sources: 5,
};

export const MAX_QUESTION_CHARS = 4000;
/** The most hits asked of one index when chunks of unfinished or failed jobs crowd out the visible ones. */
const MAX_CANDIDATES = 1000;

export interface AskQuestionInput {
  userId: string;
  sessionId: string;
  message: string;
  /** The spec's shorthand for filters: { institution }. */
  institution?: string;
  /** Per tag, a value or values any of which the chunk's tag may equal; all tags must match. */
  filters?: TagFilterInput;
}

/** What AskQuestion.stream yields, in this order: deltas, one `sources`, one `done`. */
export type AskQuestionEvent =
  | { type: 'delta'; text: string }
  | { type: 'sources'; sources: Source[] }
  | { type: 'done'; userMessageId: string; assistantMessageId: string };

export interface AskQuestionResult {
  answer: string;
  sources: Source[];
}

export class AskQuestion {
  private readonly settings: RetrievalSettings;
  private readonly reranker: HitReranker;

  constructor(private readonly deps: AskQuestionDeps) {
    this.settings = { ...DEFAULT_RETRIEVAL, ...deps.retrieval };
    this.reranker = deps.reranker ?? { rerank: async (query, hits) => rerank(query, hits) };
  }

  async execute(input: AskQuestionInput): Promise<AskQuestionResult> {
    const prepared = await this.prepare(input);
    const answer = await this.deps.llm.answer(prepared.request);
    const sources = this.sourcesOf(prepared, answer);
    await this.store(input.sessionId, prepared.request.question, answer.text, sources);
    return { answer: answer.text, sources };
  }

  /**
   * The same question, answered as events: the answer's text in pieces as the answerer produces them, then the
   * sources, then (once both messages are stored) their ids. Everything that can be refused (validation, the session,
   * retrieval) is checked before the first event, and so is the answerer's first piece: a caller that waits for the
   * first event before committing to a stream can still answer a failure as a plain error. Aborting `signal` (the
   * client left) cancels the answerer's call and stores nothing.
   */
  async *stream(input: AskQuestionInput, signal: AbortSignal): AsyncGenerator<AskQuestionEvent, void, undefined> {
    const prepared = await this.prepare(input, signal);
    const pieces = streamAnswer(this.deps.llm, prepared.request, signal);
    let answer: Answer;
    try {
      for (;;) {
        const next = await pieces.next();
        if (next.done) {
          answer = next.value;
          break;
        }
        if (next.value) yield { type: 'delta', text: next.value };
      }
    } finally {
      // A consumer that stopped early (return()) leaves the answerer's generator suspended: close it too.
      await pieces.return(undefined as never).catch(() => undefined);
    }
    const sources = this.sourcesOf(prepared, answer);
    yield { type: 'sources', sources };
    signal.throwIfAborted();
    const ids = await this.store(input.sessionId, prepared.request.question, answer.text, sources);
    yield { type: 'done', ...ids };
  }

  /** Validation, the session's ownership, the history, and retrieval: everything before the answerer. */
  private async prepare(input: AskQuestionInput, signal?: AbortSignal): Promise<{ request: AnswerRequest; packed: PackedContext; query: string }> {
    const { sessions, chats, indexes, llm, embedder } = this.deps;
    const question = input.message.trim();
    if (question.length === 0) throw new ValidationError('message must not be empty');
    if (question.length > MAX_QUESTION_CHARS) throw new ValidationError(`message must be at most ${MAX_QUESTION_CHARS} characters`);
    const filters = tagFilters(input);
    await loadOwnedSession(sessions, input.sessionId, input.userId);

    const history: HistoryTurn[] = (await chats.recent(input.sessionId, this.settings.historyMessages)).map((m) => ({
      role: m.role,
      content: m.content,
    }));
    // "What is this document about?" is answered from the documents' opening passages (overview-context.ts).
    const lexicalIndex = indexes.find((index) => index.kind === 'lexical');
    if (lexicalIndex && isOverviewQuestion(question)) {
      const visible = await this.citableJobIds(input.sessionId);
      const packed = await overviewContext(lexicalIndex, { sessionId: input.sessionId, filters, visible, contextChars: this.settings.contextChars });
      if (packed.passages.length > 0) return { request: { question, contexts: packed.passages, history, overview: true }, packed, query: question };
    }
    const query = history.length > 0 && llm.rewriteQuestion ? await llm.rewriteQuestion(question, history) : question;
    const embedding = embedder ? await embedder.embedQuery(query) : undefined;
    const visible = await this.citableJobIds(input.sessionId);
    const planners = this.deps.planners ?? [];
    // Lexical indexes match words: planners may give them the question in the documents' wording.
    const lexicalText = planners.reduce((text, planner) => planner.lexicalQuery(text), query);
    const lists = await Promise.all(
      indexes
        .filter((index) => index.kind === 'lexical' || embedding)
        .map((index) =>
          this.searchVisible(index, {
            sessionId: input.sessionId,
            text: index.kind === 'lexical' ? lexicalText : query,
            embedding,
            filters,
            limit: index.kind === 'lexical' ? Math.max(RERANK_POOL, this.settings.candidates) : this.settings.candidates,
          }, visible).then(async (hits) => index.kind === 'lexical' ? (await this.reranker.rerank(lexicalText, hits, signal)).slice(0, this.settings.candidates) : hits),
        ),
    );
    // Lexical hits above: a wider pool re-ranked (core/rag/rerank.ts), then the usual number. Planners' own searches
    // (e.g. each line of a figure to compute) pin their best hit among the passages.
    const lexical = indexes.filter((index) => index.kind === 'lexical');
    const searches = planners.flatMap((planner) => planner.pinnedSearches(query));
    const pinnedHits = await Promise.all(searches.flatMap((search) => lexical.map(async (index) =>
      search.holding(await this.searchVisible(index, { sessionId: input.sessionId, text: search.text, filters, limit: search.limit }, visible)))));
    const fused = withPinned(pinnedHits.flatMap((hits) => hits.slice(0, 1)), reciprocalRankFusion(lists, this.settings.candidates), this.settings.candidates);
    const packed = packContexts(fused, this.settings.passages, this.settings.contextChars);
    return { request: { question, contexts: packed.passages, history }, packed, query };
  }

  private sourcesOf(prepared: { packed: PackedContext; query: string }, answer: Answer): Source[] {
    return answer.usedRefs.length > 0 ? toSources(prepared.packed, answer.usedRefs, this.settings.sources, prepared.query) : [];
  }

  /** Appends the question and its answer to the history; returns their ids. */
  private async store(sessionId: string, question: string, answer: string, sources: Source[]) {
    const { chats, ids, clock } = this.deps;
    const askedAt = clock.now();
    // The answer gets a later timestamp than the question even within one millisecond.
    const answeredAt = new Date(Math.max(clock.now().getTime(), askedAt.getTime() + 1));
    const userMessage: ChatMessage = {
      id: ids.newId(), sessionId, role: 'user', content: question, createdAt: askedAt.toISOString(),
    };
    const assistantMessage: ChatMessage = {
      id: ids.newId(), sessionId, role: 'assistant', content: answer, createdAt: answeredAt.toISOString(), sources,
    };
    await chats.appendExchange(userMessage, assistantMessage);
    return { userMessageId: userMessage.id, assistantMessageId: assistantMessage.id };
  }

  /**
   * Jobs whose chunks may be cited: completed ones (and the jobs they reuse chunks of). Chunks of a job still being
   * indexed are incomplete, and those of a failed job are leftovers its cleanup could not remove (an index was down).
   */
  private async citableJobIds(sessionId: string): Promise<Set<string>> {
    const ids = new Set<string>();
    for (const job of await this.deps.jobs.listBySession(sessionId)) {
      if (job.status !== 'completed') continue;
      ids.add(job.id);
      if (job.reusedFrom) ids.add(job.reusedFrom);
    }
    return ids;
  }

  /**
   * The index's best `query.limit` hits among citable chunks. When some were dropped, asks again for more (up to
   * MAX_CANDIDATES), so a large unfinished document does not starve the answer. When nothing is hidden, this is one
   * search with the usual limit.
   */
  private async searchVisible(index: VectorIndex, query: IndexQuery, visible: Set<string>): Promise<ChunkHit[]> {
    for (let limit = query.limit; ; limit *= 4) {
      const hits = await index.search({ ...query, limit });
      const kept = hits.filter((hit) => visible.has(hit.chunk.jobId));
      if (kept.length >= query.limit || hits.length < limit || limit >= MAX_CANDIDATES) return kept.slice(0, query.limit);
    }
  }
}
