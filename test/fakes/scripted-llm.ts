import type { Answer, AnswerRequest, HistoryTurn, Llm } from '../../core/ports/llm.js';
import { NOT_FOUND_ANSWER } from '../../core/rag/prompt.js';
import { contentTokens, splitSentences } from '../../core/rag/text.js';

export type ScriptedReply = Answer | ((request: AnswerRequest) => Answer | Promise<Answer>);

export interface ScriptedLlmOptions {
  /** Replies used in order before the default behaviour. */
  replies?: ScriptedReply[];
  /**
   * The rewrite behaviour: a function, or false to leave `rewriteQuestion` out (an answerer that cannot rewrite).
   * Default: the question unchanged.
   */
  rewrite?: ((question: string, history: HistoryTurn[]) => string | Promise<string>) | false;
  /**
   * What the default answer quotes: 'matching' (default) the first sentence sharing a content word with the
   * question, in context order, and not-found when none does; 'first' the first sentence of the first context.
   */
  quote?: 'matching' | 'first';
}

/**
 * A fake Llm for core tests. By default it answers by quoting the first sentence (in context order) that shares a
 * content word with the question, citing its context ("… [2]", usedRefs ["2"]); with no such sentence, or no
 * context, it says NOT_FOUND_ANSWER with no refs. `quote: 'first'` quotes the first context whatever it says.
 * It records every request, can be given scripted replies, and can be told to throw.
 */
export class ScriptedLlm implements Llm {
  readonly requests: AnswerRequest[] = [];
  readonly rewrites: Array<{ question: string; history: HistoryTurn[] }> = [];
  rewriteQuestion?: (question: string, history: HistoryTurn[]) => Promise<string>;
  private readonly replies: ScriptedReply[];
  private failure?: { error: Error; times: number };
  private readonly quote: 'matching' | 'first';

  constructor(options: ScriptedLlmOptions = {}) {
    this.replies = [...(options.replies ?? [])];
    this.quote = options.quote ?? 'matching';
    const rewrite = options.rewrite;
    if (rewrite !== false) {
      this.rewriteQuestion = async (question, history) => {
        this.rewrites.push({ question, history: structuredClone(history) });
        this.throwIfFailing();
        return rewrite ? rewrite(question, history) : question;
      };
    }
  }

  /** Queues replies, used in order before the default behaviour. */
  reply(...replies: ScriptedReply[]): this {
    this.replies.push(...replies);
    return this;
  }

  /** The next `times` calls (answer or rewrite) throw `error` (default: every call). */
  failWith(error: Error, times = Number.POSITIVE_INFINITY): this {
    this.failure = { error, times };
    return this;
  }

  get lastRequest(): AnswerRequest | undefined {
    return this.requests.at(-1);
  }

  async answer(request: AnswerRequest): Promise<Answer> {
    this.requests.push(structuredClone(request));
    this.throwIfFailing();
    const next = this.replies.shift();
    if (next) return typeof next === 'function' ? next(request) : next;
    const wanted = new Set(contentTokens(request.question));
    for (const context of request.contexts) {
      const sentences = splitSentences(context.text);
      const sentence = this.quote === 'first' ? sentences[0] : sentences.find((s) => contentTokens(s).some((t) => wanted.has(t)));
      if (sentence) return { text: `${sentence} [${context.ref}]`, usedRefs: [context.ref] };
    }
    return { text: NOT_FOUND_ANSWER, usedRefs: [] };
  }

  private throwIfFailing(): void {
    if (!this.failure || this.failure.times <= 0) return;
    this.failure.times -= 1;
    throw this.failure.error;
  }
}
