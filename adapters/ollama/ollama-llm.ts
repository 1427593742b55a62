import { UpstreamUnavailableError } from '../../core/domain/errors.js';
import type { DependencyProbe } from '../../core/ports/health-check.js';
import type { Answer, AnswerRequest, ContextPassage, HistoryTurn, Llm } from '../../core/ports/llm.js';
import {
  NOT_FOUND_ANSWER,
  buildGroundedMessages,
  buildRewriteMessages,
  citedMarkers,
  parseRewrittenQuestion,
  resolveUsedRefs,
  selectContexts,
  stripThinking,
  type PromptMessage,
} from '../../core/rag/prompt.js';
import { DEFAULT_OLLAMA_TIMEOUT_MS, OLLAMA_DEPENDENCY, OllamaConnection } from './ollama-connection.js';

export interface OllamaLlmOptions {
  /** Base URL of the Ollama server, e.g. http://127.0.0.1:11434. */
  host: string;
  /** Chat model, e.g. llama3.2:3b. */
  model: string;
  /** Deadline of each request, default 120 000 ms. */
  timeoutMs?: number;
  /** A fixed context window (num_ctx). Unset: sized per request, see `contextWindowFor`. */
  numCtx?: number;
  /** Bounds of the sized window, default 4 096 and 16 384 tokens. */
  minNumCtx?: number;
  maxNumCtx?: number;
  /** Sampling temperature of answers, default 0.2 (rewrites always use 0). */
  temperature?: number;
  /** Most tokens an answer may have (num_predict), default 1 024; also reserved in the window. */
  maxAnswerTokens?: number;
  /** How long Ollama keeps the model loaded after a request (its `keep_alive`). Server default when unset. */
  keepAlive?: string | number;
  /** Deadline of `check()`, default min(timeoutMs, 5 000) ms. */
  checkTimeoutMs?: number;
  /** History turns given with an answer (default 6) and with a rewrite (default 4). */
  maxHistoryTurns?: number;
  maxRewriteHistoryTurns?: number;
}

/** Characters per token assumed when sizing the window: ~4 for English with Llama-style tokenisers, 3.5 to be safe. */
export const CHARS_PER_TOKEN = 3.5;
/** Tokens added per message (role markers of the chat template) and to the whole prompt (rounding, BOS…). */
const TOKENS_PER_MESSAGE = 8;
const TOKEN_MARGIN = 256;

export function estimateTokens(messages: readonly PromptMessage[]): number {
  const chars = messages.reduce((sum, m) => sum + m.content.length, 0);
  return Math.ceil(chars / CHARS_PER_TOKEN) + TOKENS_PER_MESSAGE * messages.length + TOKEN_MARGIN;
}

/**
 * The num_ctx a prompt needs: its estimated tokens plus the answer's, rounded up to a power of two and clamped to
 * [min, max]. Powers of two because Ollama reloads the model whenever num_ctx changes: a few buckets keep that rare.
 */
export function contextWindowFor(promptTokens: number, answerTokens: number, min: number, max: number): number {
  const needed = promptTokens + answerTokens;
  let window = min;
  while (window < needed && window < max) window *= 2;
  return Math.min(Math.max(window, min), max);
}

/**
 * Grounded answers from an Ollama chat model (POST /api/chat, whole or streamed). The prompt comes from
 * core/rag/prompt.ts; cited refs are read back from the reply. With no passages at all it answers the not-found
 * sentence without asking the model: there is nothing to ground an answer in.
 *
 * num_ctx: sized to the prompt (see `contextWindowFor`) and never below the largest window used so far
 * (a high-water mark), so the model is reloaded at most a few times over the process's life, not per question.
 * Passages are cut to what fits the largest window.
 */
export class OllamaLlm implements Llm, DependencyProbe {
  readonly name = 'ollama-chat';
  readonly model: string;
  private readonly connection: OllamaConnection;
  private readonly fixedNumCtx?: number;
  private readonly minNumCtx: number;
  private readonly maxNumCtx: number;
  private readonly temperature: number;
  private readonly maxAnswerTokens: number;
  private readonly keepAlive?: string | number;
  private readonly checkTimeoutMs?: number;
  private readonly maxHistoryTurns: number;
  private readonly maxRewriteHistoryTurns: number;
  private highWaterNumCtx = 0;

  constructor(options: OllamaLlmOptions) {
    if (!options.model) throw new Error('Ollama chat model is required');
    this.model = options.model;
    this.connection = new OllamaConnection(options.host, options.timeoutMs ?? DEFAULT_OLLAMA_TIMEOUT_MS);
    this.fixedNumCtx = options.numCtx;
    this.minNumCtx = options.minNumCtx ?? 4096;
    this.maxNumCtx = Math.max(options.maxNumCtx ?? 16_384, this.minNumCtx);
    this.temperature = options.temperature ?? 0.2;
    this.maxAnswerTokens = options.maxAnswerTokens ?? 1024;
    this.keepAlive = options.keepAlive;
    this.checkTimeoutMs = options.checkTimeoutMs;
    this.maxHistoryTurns = options.maxHistoryTurns ?? 6;
    this.maxRewriteHistoryTurns = options.maxRewriteHistoryTurns ?? 4;
    for (const [name, value] of Object.entries({ numCtx: this.fixedNumCtx, minNumCtx: this.minNumCtx, maxAnswerTokens: this.maxAnswerTokens })) {
      if (value !== undefined && (!Number.isInteger(value) || value < 1)) throw new Error(`${name} must be a positive integer`);
    }
  }

  async answer(request: AnswerRequest): Promise<Answer> {
    const prompt = this.groundedPrompt(request);
    if (!prompt) return { text: NOT_FOUND_ANSWER, usedRefs: [] };
    const response = await this.connection.request('answering', this.model, (client) => client.chat({ ...prompt.chat, stream: false }));
    return this.answerFrom(response?.message?.content ?? '', prompt.shown);
  }

  /**
   * The answer as the model writes it (POST /api/chat with stream: true, NDJSON). A thinking block is held back
   * until it closes, and trailing whitespace until more text follows, so the pieces joined are the final text.
   */
  async *answerStream(request: AnswerRequest, signal: AbortSignal): AsyncGenerator<string, Answer, undefined> {
    const prompt = this.groundedPrompt(request);
    if (!prompt) {
      yield NOT_FOUND_ANSWER;
      return { text: NOT_FOUND_ANSWER, usedRefs: [] };
    }
    const parts = this.connection.stream('answering', this.model, signal, (client) => client.chat({ ...prompt.chat, stream: true }));
    let raw = '';
    let sent = '';
    for await (const part of parts) {
      raw += part.message?.content ?? '';
      const visible = visiblePrefix(raw);
      if (visible.length > sent.length && visible.startsWith(sent)) {
        yield visible.slice(sent.length);
        sent = visible;
      }
    }
    // The stream may have ended on its own just as the caller left: an abandoned answer is not returned.
    signal.throwIfAborted();
    const answer = this.answerFrom(raw, prompt.shown);
    // What was sent is the final text's beginning; the rest (if any) goes out now.
    if (answer.text.startsWith(sent) && answer.text.length > sent.length) yield answer.text.slice(sent.length);
    return answer;
  }

  /** The chat request for a grounded answer and the passages it shows; undefined when there is nothing to show. */
  private groundedPrompt(request: AnswerRequest) {
    const contexts = request.contexts.filter((c) => c.text.trim().length > 0);
    if (contexts.length === 0) return undefined;

    const base = { question: request.question, history: request.history, maxHistoryTurns: this.maxHistoryTurns };
    // What fits the largest window once the rules, history, question, fences and the answer are counted.
    const ceiling = this.fixedNumCtx ?? this.maxNumCtx;
    const overhead = estimateTokens(buildGroundedMessages({ ...base, contexts: [] })) + 40 * contexts.length;
    const maxContextChars = Math.max(500, Math.floor((ceiling - this.maxAnswerTokens - overhead) * CHARS_PER_TOKEN));
    let shown = selectContexts(contexts, maxContextChars);
    let messages = buildGroundedMessages({ ...base, contexts: shown, maxContextChars });
    // The passages' tables, written out again as tables, count too: fewer passages when they overflow the window.
    const over = estimateTokens(messages) + this.maxAnswerTokens - ceiling;
    if (over > 0 && shown.length > 1) {
      const fewer = Math.max(500, maxContextChars - Math.ceil(over * CHARS_PER_TOKEN));
      shown = selectContexts(contexts, fewer);
      messages = buildGroundedMessages({ ...base, contexts: shown, maxContextChars: fewer });
    }
    const numCtx = this.windowFor(messages, this.maxAnswerTokens);
    const chat = {
      model: this.model,
      messages,
      options: { num_ctx: numCtx, temperature: this.temperature, num_predict: this.maxAnswerTokens },
      ...(this.keepAlive !== undefined ? { keep_alive: this.keepAlive } : {}),
    };
    return { chat, shown };
  }

  private answerFrom(reply: string, shown: ContextPassage[]): Answer {
    const text = stripThinking(reply);
    if (!text) {
      throw new UpstreamUnavailableError(OLLAMA_DEPENDENCY, `Ollama model "${this.model}" returned an empty answer`);
    }
    const usedRefs = resolveUsedRefs(text, shown);
    return { text, usedRefs, markers: citedMarkers(text, shown.filter((c) => usedRefs.includes(c.ref))) };
  }

  /**
   * A follow-up made standalone for retrieval. Without history there is nothing to resolve: the question is returned
   * as asked, without a call. An empty or absurdly long reply falls back to the question.
   */
  async rewriteQuestion(question: string, history: HistoryTurn[]): Promise<string> {
    if (history.length === 0) return question;
    const messages = buildRewriteMessages(question, history, { maxHistoryTurns: this.maxRewriteHistoryTurns });
    const maxTokens = 128;
    const numCtx = this.windowFor(messages, maxTokens);
    const response = await this.connection.request('rewriting the question', this.model, (client) =>
      client.chat({
        model: this.model,
        messages,
        stream: false,
        options: { num_ctx: numCtx, temperature: 0, num_predict: maxTokens },
        ...(this.keepAlive !== undefined ? { keep_alive: this.keepAlive } : {}),
      }),
    );
    return parseRewrittenQuestion(response?.message?.content ?? '', question);
  }

  /** Readiness: the server answers and has the model. */
  async check(): Promise<void> {
    await this.connection.checkModel(this.model, this.checkTimeoutMs);
  }

  private windowFor(messages: readonly PromptMessage[], answerTokens: number): number {
    if (this.fixedNumCtx !== undefined) return this.fixedNumCtx;
    const window = Math.max(contextWindowFor(estimateTokens(messages), answerTokens, this.minNumCtx, this.maxNumCtx), this.highWaterNumCtx);
    this.highWaterNumCtx = window;
    return window;
  }
}

/**
 * The part of a reply being streamed that can be shown already: thinking blocks (closed, or still open) dropped,
 * leading and trailing whitespace trimmed, as stripThinking does to the whole reply. An opening tag may still be
 * arriving: a trailing "<" that could begin "<think" is held back.
 */
export function visiblePrefix(raw: string): string {
  const text = stripThinking(raw);
  const partialTag = /<(?:t(?:h(?:i(?:n(?:k(?:i(?:n(?:g)?)?)?)?)?)?)?)?$/i.exec(text);
  return partialTag ? text.slice(0, partialTag.index).trimEnd() : text;
}
