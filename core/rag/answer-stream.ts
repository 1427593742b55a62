import type { Answer, AnswerRequest, Llm } from '../ports/llm.js';

/**
 * The text cut after each sentence end (and the whitespace after it), so that the pieces joined are the text exactly.
 * A citation or closing quote after the full stop stays with its sentence.
 */
export function sentencePieces(text: string): string[] {
  return text.split(/(?<=[.!?…][”"’')\]]*(?:\s*\[[^\]\n]{1,20}\])?\s+)(?=\S)(?!\[[^\]\n]{1,20}\])/u).filter((piece) => piece.length > 0);
}

/** An answer computed whole, then yielded in sentences: the streaming of an answerer that cannot stream. */
export async function* answerInSentences(answer: () => Promise<Answer>, signal: AbortSignal): AsyncGenerator<string, Answer, undefined> {
  signal.throwIfAborted();
  const whole = await answer();
  for (const piece of sentencePieces(whole.text)) {
    signal.throwIfAborted();
    yield piece;
  }
  signal.throwIfAborted();
  return whole;
}

/** The answerer's own stream when it has one, else its whole answer in sentences. */
export function streamAnswer(llm: Llm, request: AnswerRequest, signal: AbortSignal): AsyncGenerator<string, Answer, undefined> {
  return llm.answerStream ? llm.answerStream(request, signal) : answerInSentences(() => llm.answer(request), signal);
}
