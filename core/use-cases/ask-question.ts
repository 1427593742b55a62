import { ValidationError } from '../domain/errors.js';
import type { ChatMessage, IngestJob, Source } from '../domain/model.js';
import { loadOwnedSession } from '../domain/ownership.js';
import { matchesTagFilters, tagFilters, type TagFilterInput } from '../domain/tags.js';
import type { ChatRepo } from '../ports/chat-repo.js';
import type { Clock, IdGenerator } from '../ports/clock-and-ids.js';
import type { Embedder } from '../ports/embedder.js';
import type { GroundedAnswerer } from '../ports/grounded-answerer.js';
import type { HitReranker } from '../ports/hit-reranker.js';
import type { IngestJobRepo } from '../ports/ingest-job-repo.js';
import type { Logger } from '../ports/logger.js';
import type { StorageSpace } from '../ports/storage-space.js';
import type { Answer, AnswerRequest, HistoryTurn, Llm } from '../ports/llm.js';
import type { QueryPlanner } from '../ports/query-planner.js';
import type { SessionRepo } from '../ports/session-repo.js';
import type { VectorIndex } from '../ports/vector-index.js';
import { answerInSentences, streamAnswer } from '../rag/answer-stream.js';
import type { PackedContext } from '../rag/context.js';
import { joinNotes, notSavedNote, stillReadingNote } from '../rag/answer-notes.js';
import { documentsNamed, moreDocumentsNote, overviewSubject } from '../rag/overview.js';
import { kindsHeld } from '../rag/document-kinds.js';
import { OVERVIEW_DOCUMENTS, overviewContext } from './overview-context.js';
import { RetrieveAndAnswer, type RetrievalSettings } from './retrieve-and-answer.js';

export { DEFAULT_RETRIEVAL, type RetrievalSettings } from './retrieve-and-answer.js';

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
  /**
   * Retrieval and the answer together, elsewhere (e.g. a worker thread): when given, every question but an overview
   * one is answered by it, whole, and streamed in sentences. By default both run here (RetrieveAndAnswer).
   */
  grounded?: GroundedAnswerer;
  ids: IdGenerator;
  clock: Clock;
  retrieval?: Partial<RetrievalSettings>;
  /** Knowledge of kinds of documents, asked in order (core/ports/query-planner.ts); none by default. */
  planners?: QueryPlanner[];
  /** Where a question and answer that could not be stored are reported (the answer is given all the same). */
  logger?: Logger;
  /** Tells a full disk from other failures to store, for the note under the answer (default: not told). */
  space?: StorageSpace;
}

export const MAX_QUESTION_CHARS = 4000;

export interface AskQuestionInput {
  userId: string;
  sessionId: string;
  message: string;
  /** The spec's shorthand for filters: { institution }. */
  institution?: string;
  /** Per tag, a value or values any of which the chunk's tag may equal; all tags must match. */
  filters?: TagFilterInput;
  /** Ingest ids of documents of the session: only these are answered from (with the filters). None: every document. */
  documents?: readonly string[];
}

/**
 * What AskQuestion.stream yields, in this order: deltas, one `sources`, one `done` (with the stored messages' ids, or
 * `saved: false` when they could not be stored: the last delta then says so).
 */
export type AskQuestionEvent =
  | { type: 'delta'; text: string }
  | { type: 'sources'; sources: Source[] }
  | { type: 'done'; userMessageId: string; assistantMessageId: string }
  | { type: 'done'; saved: false };

export interface AskQuestionResult {
  answer: string;
  sources: Source[];
  /** The plug-ins (knowledge of a kind of document) that took part in the answer, by name; [] when none did. */
  plugins: string[];
  /** False when the exchange could not be stored (the answer ends with a note saying so). */
  saved: boolean;
}

/** The stored messages' ids, or why the exchange could not be stored. */
type Stored = { saved: true; userMessageId: string; assistantMessageId: string } | { saved: false; note: string };

/** A question ready for the answerer, or (answered elsewhere with its retrieval: `grounded`) already answered. */
type Prepared = (
  | { request: AnswerRequest; packed: PackedContext; query: string; answered?: undefined; plugins?: string[] }
  | { request: AnswerRequest; answered: { answer: Answer; sources: Source[]; plugins?: string[] } }
) & { note?: string };

export class AskQuestion {
  private readonly settings: RetrievalSettings;
  private readonly retrieval: RetrieveAndAnswer;

  constructor(private readonly deps: AskQuestionDeps) {
    this.retrieval = new RetrieveAndAnswer({ ...deps, settings: deps.retrieval });
    this.settings = this.retrieval.settings;
  }

  async execute(input: AskQuestionInput): Promise<AskQuestionResult> {
    const prepared = await this.prepare(input);
    const answer = withNote(prepared.answered?.answer ?? await this.deps.llm.answer(prepared.request), prepared.note);
    const sources = this.sourcesOf(prepared, answer);
    const plugins = this.pluginsOf(input.sessionId, prepared, answer);
    const stored = await this.store(input.sessionId, prepared.request.question, answer.text, sources);
    return { answer: stored.saved ? answer.text : `${answer.text}\n\n${stored.note}`, sources, saved: stored.saved, plugins };
  }

  /**
   * The same question, answered as events: the answer's text in pieces as the answerer produces them, then the
   * sources, then (once both messages are stored) their ids. Messages that could not be stored (a full disk) lose
   * nothing of the answer: one more delta says they were not saved, and `done` carries `saved: false`. Everything
   * that can be refused (validation, the session, retrieval) is checked before the first event, and so is the
   * answerer's first piece: a caller that waits for the first event before committing to a stream can still answer a
   * failure as a plain error. Aborting `signal` (the client left) cancels the answerer's call and stores nothing.
   */
  async *stream(input: AskQuestionInput, signal: AbortSignal): AsyncGenerator<AskQuestionEvent, void, undefined> {
    const prepared = await this.prepare(input, signal);
    const answered = prepared.answered?.answer;
    const pieces = answered ? answerInSentences(async () => answered, signal) : streamAnswer(this.deps.llm, prepared.request, signal);
    let answer: Answer;
    try {
      for (;;) {
        const next = await pieces.next();
        if (next.done) {
          answer = withNote(next.value, prepared.note);
          if (prepared.note) yield { type: 'delta', text: `\n\n${prepared.note}` };
          break;
        }
        if (next.value) yield { type: 'delta', text: next.value };
      }
    } finally {
      // A consumer that stopped early (return()) leaves the answerer's generator suspended: close it too.
      await pieces.return(undefined as never).catch(() => undefined);
    }
    const sources = this.sourcesOf(prepared, answer);
    this.pluginsOf(input.sessionId, prepared, answer);
    signal.throwIfAborted();
    const stored = await this.store(input.sessionId, prepared.request.question, answer.text, sources);
    if (!stored.saved) yield { type: 'delta', text: `\n\n${stored.note}` };
    yield { type: 'sources', sources };
    if (stored.saved) yield { type: 'done', userMessageId: stored.userMessageId, assistantMessageId: stored.assistantMessageId };
    else yield { type: 'done', saved: false };
  }

  /**
   * Validation, the session's ownership, the history, and retrieval: everything before the answerer. With `grounded`,
   * retrieval and the answer are one call elsewhere; this thread then only reads what the request needs.
   */
  private async prepare(input: AskQuestionInput, signal?: AbortSignal): Promise<Prepared> {
    const { sessions, chats, indexes } = this.deps;
    const question = input.message.trim();
    if (question.length === 0) throw new ValidationError('message must not be empty');
    if (question.length > MAX_QUESTION_CHARS) throw new ValidationError(`message must be at most ${MAX_QUESTION_CHARS} characters`);
    const filters = tagFilters(input);
    await loadOwnedSession(sessions, input.sessionId, input.userId);

    const history: HistoryTurn[] = (await chats.recent(input.sessionId, this.settings.historyMessages)).map((m) => {
      const cited = [...new Set((m.sources ?? []).filter((source) => source.cited).map((source) => source.ingestId))];
      return { role: m.role, content: m.content, ...(cited.length > 0 && { cited }) };
    });
    const { visible, citable, reading } = await this.citableJobs(input.sessionId, input.documents);
    // Said under the answer: right after an upload, "not found" would otherwise read as final.
    const readingNote = stillReadingNote(reading.filter((job) => matchesTagFilters(job.tags, filters)).map((job) => job.filename));
    // "What is this document about?" is answered from the documents' opening passages (overview-context.ts); "Summarize
    // the Warsaw guide" from those of the documents whose file names hold its naming words.
    const lexicalIndex = indexes.find((index) => index.kind === 'lexical');
    const naming = lexicalIndex ? overviewSubject(question) : undefined;
    const overviewed = naming && (naming.length === 0 ? citable : documentsNamed(naming, citable, question)).filter((job) => matchesTagFilters(job.tags, filters));
    if (lexicalIndex && overviewed && overviewed.length > 0) {
      const units = unitsOf(overviewed);
      const packed = await overviewContext(lexicalIndex, { sessionId: input.sessionId, filters, documents: overviewed.map(ownIds), contextChars: this.settings.contextChars, units });
      // With more documents than it covers, the answer says how many there are.
      const more = overviewed.length > OVERVIEW_DOCUMENTS ? moreDocumentsNote(OVERVIEW_DOCUMENTS, overviewed.length) : undefined;
      const note = joinNotes(more, readingNote);
      const held = kindsHeld(kindsOf(overviewed));
      const request = { question, contexts: packed.passages, history, overview: true, ...(held && { kinds: [...held].sort() }) };
      if (packed.passages.length > 0) return { request, packed, query: question, note };
    }
    const filenames = Object.fromEntries(citable.flatMap((job) => ownIds(job).map((id) => [id, job.filename])));
    const kinds = kindsOf(citable.filter((job) => matchesTagFilters(job.tags, filters)));
    const units = unitsOf(citable);
    const grounded = { userId: input.userId, sessionId: input.sessionId, question, history, filters, visibleJobIds: [...visible], filenames, kinds, units };
    if (this.deps.grounded) {
      const answered = await this.deps.grounded.answer(grounded, signal);
      return { request: { question, contexts: [], history }, answered, note: joinNotes(answered.note, readingNote) };
    }
    const retrieved = await this.retrieval.retrieve(grounded, signal);
    return { ...retrieved, note: joinNotes(retrieved.note, readingNote) };
  }

  /**
   * The plug-ins that took part (planners that changed a search, skills that shaped the answer), logged when any did:
   * a domain rule answering where it should not is then found in the log.
   */
  private pluginsOf(sessionId: string, prepared: Prepared, answer: Answer): string[] {
    const planned = prepared.answered ? prepared.answered.plugins ?? [] : prepared.plugins ?? [];
    const plugins = [...new Set([...planned, ...(answer.skills ?? [])])];
    if (plugins.length > 0) this.deps.logger?.info('answer plug-ins took part', { sessionId, plugins });
    return plugins;
  }

  private sourcesOf(prepared: Prepared, answer: Answer): Source[] {
    return prepared.answered ? prepared.answered.sources : this.retrieval.sourcesOf(prepared, answer);
  }

  /**
   * Appends the question and its answer to the history; returns their ids. A failure to store them is logged and
   * said in a note instead of failing the question: the answer was produced, losing it too would help no one.
   */
  private async store(sessionId: string, question: string, answer: string, sources: Source[]): Promise<Stored> {
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
    try {
      await chats.appendExchange(userMessage, assistantMessage);
    } catch (error) {
      const outOfSpace = this.deps.space?.isExhausted(error) ?? false;
      this.deps.logger?.error('could not store a question and its answer; answered without saving them', {
        sessionId, outOfDiskSpace: outOfSpace, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
      return { saved: false, note: notSavedNote(outOfSpace) };
    }
    return { saved: true, userMessageId: userMessage.id, assistantMessageId: assistantMessage.id };
  }

  /**
   * Jobs whose chunks may be cited (`citable`): completed ones, of those `chosen` when given; `visible`: their ids and
   * those of the jobs they reuse chunks of; `reading`: those queued or being read, not searched yet.
   * Chunks of a job still being indexed are incomplete, and those of a failed job are leftovers its cleanup could not
   * remove (an index was down). A chosen id that is no document of the session is refused: it names nothing to ask.
   */
  private async citableJobs(sessionId: string, chosen?: readonly string[]): Promise<{ visible: Set<string>; citable: IngestJob[]; reading: IngestJob[] }> {
    const jobs = await this.deps.jobs.listBySession(sessionId);
    const unknown = chosen?.find((id) => !jobs.some((job) => job.id === id));
    if (unknown !== undefined) throw new ValidationError(`documents: "${unknown.slice(0, 100)}" is not a document of this session`);
    const asked = chosen ? jobs.filter((job) => chosen.includes(job.id)) : jobs;
    const citable = asked.filter((job) => job.status === 'completed');
    const reading = asked.filter((job) => job.status === 'queued' || job.status === 'processing');
    return { visible: jobIdsOf(citable), citable, reading };
  }
}

/** The ids whose chunks are the jobs' own: each job's, and the job's whose chunks it reuses (an identical upload). */
function jobIdsOf(jobs: readonly IngestJob[]): Set<string> {
  return new Set(jobs.flatMap(ownIds));
}

/** The kind of each job's chunks, by the ids they are indexed under; null for a job never told one. */
function kindsOf(jobs: readonly IngestJob[]): Record<string, string | null> {
  return Object.fromEntries(jobs.flatMap((job) => ownIds(job).map((id) => [id, job.kind ?? null])));
}

/** The unit labels of the jobs that have units, by the ids their chunks are indexed under (a passage names its unit). */
function unitsOf(jobs: readonly IngestJob[]): Record<string, string[]> {
  return Object.fromEntries(jobs.flatMap((job) => (job.units ? ownIds(job).map((id) => [id, job.units!]) : [])));
}

/** A job's id, and the id of the job whose chunks it reuses. */
function ownIds(job: IngestJob): string[] {
  return job.reusedFrom ? [job.id, job.reusedFrom] : [job.id];
}

/** The answer with a line of the service's own under it (what the answer's passages left out), if there is one. */
function withNote(answer: Answer, note: string | undefined): Answer {
  return note ? { ...answer, text: `${answer.text}\n\n${note}` } : answer;
}
