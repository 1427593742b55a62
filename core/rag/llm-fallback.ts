import { UpstreamUnavailableError } from '../domain/errors.js';
import type { Answer, AnswerRequest, HistoryTurn, Llm } from '../ports/llm.js';
import { LANGUAGE_MODEL_UNAVAILABLE_NOTE } from './answer-notes.js';
import { streamAnswer } from './answer-stream.js';

/**
 * An answerer that stands in for another while that one's server does not answer (UpstreamUnavailableError only: any
 * other failure is the answerer's own and stands). The stand-in's answer carries LANGUAGE_MODEL_UNAVAILABLE_NOTE, so
 * no one takes a quoted answer for the model's. A stream falls back only before its first piece: once the model has
 * begun answering, a failure is reported as it is.
 */
export class LlmWithFallback implements Llm {
  readonly rewriteQuestion?: (question: string, history: HistoryTurn[]) => Promise<string>;

  constructor(
    private readonly primary: Llm,
    private readonly standIn: Llm,
  ) {
    if (primary.rewriteQuestion) this.rewriteQuestion = primary.rewriteQuestion.bind(primary);
  }

  async answer(request: AnswerRequest): Promise<Answer> {
    try {
      return await this.primary.answer(request);
    } catch (error) {
      if (!(error instanceof UpstreamUnavailableError)) throw error;
      return withNote(await this.standIn.answer(request));
    }
  }

  async *answerStream(request: AnswerRequest, signal: AbortSignal): AsyncGenerator<string, Answer, undefined> {
    const pieces = streamAnswer(this.primary, request, signal);
    let next: IteratorResult<string, Answer>;
    try {
      next = await pieces.next();
    } catch (error) {
      if (!(error instanceof UpstreamUnavailableError) || signal.aborted) throw error;
      const answer = yield* streamAnswer(this.standIn, request, signal);
      yield `\n\n${LANGUAGE_MODEL_UNAVAILABLE_NOTE}`;
      return withNote(answer);
    }
    try {
      for (; !next.done; next = await pieces.next()) yield next.value;
      return next.value;
    } finally {
      await pieces.return(undefined as never).catch(() => undefined);
    }
  }
}

function withNote(answer: Answer): Answer {
  return { ...answer, text: `${answer.text}\n\n${LANGUAGE_MODEL_UNAVAILABLE_NOTE}` };
}
