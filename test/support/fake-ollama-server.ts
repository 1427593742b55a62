import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NOT_FOUND_ANSWER } from '../../core/rag/prompt.js';
import { contentTokens, splitSentences, wordTokens } from '../../core/rag/text.js';

/**
 * A real HTTP server on 127.0.0.1 that answers the parts of Ollama's REST API the adapters use, shaped as
 * https://github.com/ollama/ollama/blob/main/docs/api.md documents them:
 *   POST /api/chat   (non-streamed JSON; streamed NDJSON, a line per token, when stream is true)
 *   POST /api/embed  { model, embeddings: number[][] }
 *   POST /api/show, GET /api/tags, GET /api/version, GET / ("Ollama is running")
 * Unknown models get 404 { error: "model 'x' not found, try pulling it first" }.
 *
 * Tests script it: queued chat replies or a chat function, delays (deadlines), failures (500, hang-ups), and read
 * back every request received (prompt text, options such as num_ctx, embedding inputs with their prefixes).
 * Embeddings are deterministic feature-hashed words, so retrieval through it ranks by shared words.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined for GET). */
  body: any;
  receivedAt: number;
}

export interface FakeChatMessage {
  role: string;
  content: string;
}

export interface FakeChatRequest {
  model: string;
  messages: FakeChatMessage[];
  stream?: boolean;
  options?: Record<string, unknown>;
  keep_alive?: string | number;
}

export interface FakeEmbedRequest {
  model: string;
  input: string | string[];
  keep_alive?: string | number;
  truncate?: boolean;
}

/** What the "model" says to a chat request. */
export type ChatScript = (request: FakeChatRequest) => string | Promise<string>;

export interface FakeFailure {
  /** HTTP status, default 500. */
  status?: number;
  /** The `error` text of the JSON body, default "an internal error occurred". */
  error?: string;
  /** A whole JSON body to send instead of `{ error }` (a malformed answer, with status 200). */
  body?: unknown;
  /** Destroy the connection instead of answering (a crash mid-request). */
  hangUp?: boolean;
  /** How many requests fail, default every one until `clearFaults()`. */
  times?: number;
}

export interface FakeOllamaOptions {
  /** Local models, as /api/tags lists them (default llama3.2:latest, nomic-embed-text:latest, all-minilm:latest, mxbai-embed-large:latest). */
  models?: string[];
  /** Embedding length (default 128). */
  dimensions?: number;
  /** The chat behaviour when no reply is queued (default `groundedChatReply`). */
  chat?: ChatScript;
  /** Listen on this port of 127.0.0.1 (default: a free one), e.g. to come back where a closed server was. */
  port?: number;
}

export const DEFAULT_FAKE_MODELS = ['llama3.2:latest', 'nomic-embed-text:latest', 'all-minilm:latest', 'mxbai-embed-large:latest'];

export class FakeOllamaServer {
  readonly requests: RecordedRequest[] = [];
  models: string[];
  chatScript: ChatScript;
  readonly dimensions: number;
  private readonly replies: string[] = [];
  private readonly delays = new Map<string, number>();
  private readonly failures = new Map<string, FakeFailure>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** How streamed chat replies are sent (see `streamChat`); cleared by `clearFaults()`. */
  streaming: { tokenDelayMs?: number; failAfterTokens?: number; failure?: Pick<FakeFailure, 'error' | 'hangUp'> } = {};
  /** Streamed chat replies whose client went away before the last line, and those sent to the end. */
  abortedStreams = 0;
  completedStreams = 0;
  /** Requests whose client went away while their answer was delayed (see `delay`). */
  abandonedRequests = 0;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    options: FakeOllamaOptions,
  ) {
    this.models = [...(options.models ?? DEFAULT_FAKE_MODELS)];
    this.chatScript = options.chat ?? groundedChatReply;
    this.dimensions = options.dimensions ?? 128;
  }

  static async start(options: FakeOllamaOptions = {}): Promise<FakeOllamaServer> {
    let fake: FakeOllamaServer | undefined;
    const server = http.createServer((req, res) => {
      void fake!.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent && !res.destroyed) sendJson(res, 500, { error: String(error) });
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    fake = new FakeOllamaServer(server, `http://127.0.0.1:${port}`, options);
    return fake;
  }

  /** Queues chat replies, used in order before the chat script. */
  replyWith(...texts: string[]): this {
    this.replies.push(...texts);
    return this;
  }

  onChat(script: ChatScript): this {
    this.chatScript = script;
    return this;
  }

  /** Delays every answer to `path` ('*' for all) by `ms`. */
  delay(path: string, ms: number): this {
    this.delays.set(path, ms);
    return this;
  }

  /** Makes requests to `path` ('*' for all) fail, or answer `failure.body` instead of what they should. */
  fail(path: string, failure: FakeFailure = {}): this {
    this.failures.set(path, { ...failure });
    return this;
  }

  /** Streamed chat replies send a token every `ms`. */
  streamTokensEvery(ms: number): this {
    this.streaming.tokenDelayMs = ms;
    return this;
  }

  /** Streamed chat replies fail after `tokens` tokens: an error line (Ollama's way), or a dropped connection. */
  failStreamAfter(tokens: number, failure: Pick<FakeFailure, 'error' | 'hangUp'> = {}): this {
    this.streaming.failAfterTokens = tokens;
    this.streaming.failure = failure;
    return this;
  }

  clearFaults(): this {
    this.streaming = {};
    this.delays.clear();
    this.failures.clear();
    return this;
  }

  /** Forgets requests, queued replies and faults; the chat script and models stay. */
  reset(): this {
    this.requests.length = 0;
    this.replies.length = 0;
    this.abortedStreams = 0;
    this.completedStreams = 0;
    this.abandonedRequests = 0;
    return this.clearFaults();
  }

  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  chatRequests(): FakeChatRequest[] {
    return this.requestsTo('/api/chat').map((r) => r.body as FakeChatRequest);
  }

  embedRequests(): FakeEmbedRequest[] {
    return this.requestsTo('/api/embed').map((r) => r.body as FakeEmbedRequest);
  }

  /** Every text sent to /api/embed, in order. */
  embeddedInputs(): string[] {
    return this.embedRequests().flatMap((r) => (Array.isArray(r.input) ? r.input : [r.input]));
  }

  embedding(text: string): number[] {
    return fakeEmbedding(text, this.dimensions);
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const raw = await readBody(req);
    let body: any;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw);
      } catch {
        this.requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body: raw, receivedAt: Date.now() });
        return sendJson(res, 400, { error: 'invalid character in request body' });
      }
    }
    this.requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body, receivedAt: Date.now() });

    const ms = this.delays.get(path) ?? this.delays.get('*') ?? 0;
    if (ms > 0 && !(await this.wait(ms, res))) {
      this.abandonedRequests += 1;
      return;
    }

    const failure = this.takeFailure(path);
    if (failure) {
      if (failure.hangUp) {
        req.socket.destroy();
        return;
      }
      return sendJson(res, failure.status ?? 500, failure.body ?? { error: failure.error ?? 'an internal error occurred' });
    }

    const route = `${req.method} ${path}`;
    switch (route) {
      case 'GET /':
      case 'HEAD /':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        return void res.end('Ollama is running');
      case 'GET /api/version':
        return sendJson(res, 200, { version: '0.12.6' });
      case 'GET /api/tags':
        return sendJson(res, 200, { models: this.models.map(describeModel) });
      case 'POST /api/show':
        return this.show(res, body);
      case 'POST /api/chat':
        return this.chat(res, body);
      case 'POST /api/embed':
        return this.embed(res, body);
      default:
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        return void res.end('404 page not found');
    }
  }

  private hasModel(name: unknown): boolean {
    if (typeof name !== 'string' || !name) return false;
    const full = (n: string) => (n.includes(':') ? n : `${n}:latest`);
    return this.models.some((m) => full(m) === full(name));
  }

  private modelMissing(res: ServerResponse, body: any): boolean {
    if (typeof body?.model !== 'string' || !body.model) {
      sendJson(res, 400, { error: 'model is required' });
      return true;
    }
    if (!this.hasModel(body.model)) {
      sendJson(res, 404, { error: `model '${body.model}' not found, try pulling it first` });
      return true;
    }
    return false;
  }

  private show(res: ServerResponse, body: any): void {
    if (this.modelMissing(res, body)) return;
    sendJson(res, 200, {
      modelfile: `FROM ${body.model}`,
      parameters: '',
      template: '{{ .Prompt }}',
      details: describeModel(body.model).details,
      model_info: {},
      capabilities: /embed|minilm/.test(body.model) ? ['embedding'] : ['completion'],
    });
  }

  private async chat(res: ServerResponse, body: any): Promise<void> {
    if (this.modelMissing(res, body)) return;
    if (!Array.isArray(body.messages)) return sendJson(res, 400, { error: 'messages is required' });
    const started = Date.now();
    const content = this.replies.length > 0 ? this.replies.shift()! : await this.chatScript(body as FakeChatRequest);
    const promptChars = (body.messages as FakeChatMessage[]).reduce((n, m) => n + String(m.content ?? '').length, 0);
    const stats = {
      done_reason: 'stop',
      total_duration: (Date.now() - started) * 1e6,
      load_duration: 0,
      prompt_eval_count: Math.ceil(promptChars / 4),
      prompt_eval_duration: 0,
      eval_count: Math.ceil(content.length / 4),
      eval_duration: 0,
    };
    const createdAt = new Date().toISOString();
    if (body.stream === false) {
      return sendJson(res, 200, { model: body.model, created_at: createdAt, message: { role: 'assistant', content }, done: true, ...stats });
    }
    await this.streamChat(res, body.model, createdAt, content, stats);
  }

  /**
   * A streamed reply as Ollama sends it: one NDJSON line per token (a word with the whitespace before it), `streaming.
   * tokenDelayMs` apart, then a `done` line with the stats; or, with `streaming.failAfterTokens`, an error line (or a
   * dropped connection) after that many tokens. A client that closes before the end is counted in `abortedStreams`.
   */
  private async streamChat(res: ServerResponse, model: string, createdAt: string, content: string, stats: object): Promise<void> {
    const { tokenDelayMs = 0, failAfterTokens, failure = {} } = this.streaming;
    const line = (message: object) => res.write(`${JSON.stringify({ model, created_at: createdAt, ...message })}\n`);
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const tokens = content.match(/\s*\S+/g) ?? [content];
    for (const [i, token] of tokens.entries()) {
      if (failAfterTokens !== undefined && i === failAfterTokens) {
        if (failure.hangUp) return void res.socket?.destroy();
        return void res.end(`${JSON.stringify({ error: failure.error ?? 'an internal error occurred' })}\n`);
      }
      if (i > 0 && tokenDelayMs > 0 && !(await this.wait(tokenDelayMs, res))) {
        this.abortedStreams += 1;
        return;
      }
      if (res.destroyed) {
        this.abortedStreams += 1;
        return;
      }
      line({ message: { role: 'assistant', content: token }, done: false });
    }
    res.end(`${JSON.stringify({ model, created_at: createdAt, message: { role: 'assistant', content: '' }, done: true, ...stats })}\n`);
    this.completedStreams += 1;
  }

  private embed(res: ServerResponse, body: any): void {
    if (this.modelMissing(res, body)) return;
    const input: unknown[] = Array.isArray(body.input) ? body.input : [body.input];
    if (input.some((t) => typeof t !== 'string')) return sendJson(res, 400, { error: 'invalid input type' });
    sendJson(res, 200, {
      model: body.model,
      embeddings: (input as string[]).map((t) => this.embedding(t)),
      total_duration: 1000,
      load_duration: 0,
      prompt_eval_count: (input as string[]).reduce((n, t) => n + wordTokens(t).length, 0),
    });
  }

  /** Waits `ms`; false when the client went away meanwhile (nothing left to answer). */
  private wait(ms: number, res: ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        res.off('close', onClose);
        resolve(!res.destroyed);
      }, ms);
      const onClose = () => {
        clearTimeout(timer);
        this.timers.delete(timer);
        resolve(false);
      };
      this.timers.add(timer);
      res.once('close', onClose);
    });
  }

  private takeFailure(path: string): FakeFailure | undefined {
    const key = this.failures.has(path) ? path : this.failures.has('*') ? '*' : undefined;
    if (!key) return undefined;
    const failure = this.failures.get(key)!;
    if (failure.times !== undefined) {
      failure.times -= 1;
      if (failure.times <= 0) this.failures.delete(key);
    }
    return failure;
  }
}

function describeModel(name: string) {
  const full = name.includes(':') ? name : `${name}:latest`;
  return {
    name: full,
    model: full,
    modified_at: '2025-01-01T00:00:00Z',
    size: 1_000_000,
    digest: 'sha256:0000000000000000000000000000000000000000000000000000000000000000',
    details: {
      parent_model: '',
      format: 'gguf',
      family: full.split(/[:.\d]/)[0] || 'fake',
      families: null,
      parameter_size: '1B',
      quantization_level: 'Q4_K_M',
    },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Feature-hashed word embedding: lower-case words (stopwords dropped when others remain) hashed with FNV-1a into
 * `dimensions` signed buckets, L2-normalised; a text without words gets a fixed unit vector.
 */
export function fakeEmbedding(text: string, dimensions = 128): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const content = contentTokens(text);
  for (const token of content.length > 0 ? content : wordTokens(text)) {
    vector[fnv1a(token) % dimensions] += fnv1a(token, 0x9e3779b9) & 1 ? 1 : -1;
  }
  const norm = Math.sqrt(vector.reduce((s, v) => s + v * v, 0));
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  return vector.map((v) => v / norm);
}

function fnv1a(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * The default "model": behaves like an obedient grounded model for the prompts core/rag/prompt.ts builds.
 * - A rewrite request (its system prompt asks for a standalone search query): the latest question followed by the
 *   previous user question, so the follow-up carries the earlier subject.
 * - A grounded request with a figure worked out from a table's cells (its <tables> block, and rules asking for the
 *   direct answer first): that line, cited with its ref.
 * - Another grounded request: the sentence of the fenced documents sharing the most content words with the question,
 *   cited with its ref ("… [2]"); the not-found sentence when no sentence shares a word.
 */
export function groundedChatReply(request: FakeChatRequest): string {
  const system = request.messages.find((m) => m.role === 'system')?.content ?? '';
  const last = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  if (/standalone search query/i.test(system)) {
    const latest = /Latest question:\s*(.*)/.exec(last)?.[1]?.trim() ?? '';
    const users = [...last.matchAll(/^User:\s*(.*)$/gm)].map((m) => m[1].trim());
    const previous = users.at(-1) ?? '';
    return [latest.replace(/\?+$/, ''), previous.replace(/\?+$/, '')].filter(Boolean).join(' — ');
  }
  // The figure the prompt worked out from a table's cells is the direct answer, as the rules ask (core/rag/prompt.ts).
  const worked = /^(?:Computed|Read) from the cells of \[([^\]]+)\]: (.*)$/m.exec(/<tables>\n([\s\S]*?)\n<\/tables>/.exec(last)?.[1] ?? '');
  if (worked && /Start with the direct answer/.test(system)) return `${worked[2]} [${worked[1]}]`;
  const question = /^Question:\s*(.*)$/m.exec(last)?.[1] ?? '';
  const wanted = new Set(contentTokens(question));
  let best: { ref: string; sentence: string; score: number } | undefined;
  for (const doc of last.matchAll(/<document ref="([^"]*)"[^>\n]*>\n([\s\S]*?)\n<\/document>/g)) {
    for (const sentence of splitSentences(doc[2])) {
      const score = new Set(contentTokens(sentence).filter((t) => wanted.has(t))).size;
      if (score > 0 && (!best || score > best.score)) best = { ref: doc[1], sentence, score };
    }
  }
  return best ? `${best.sentence} [${best.ref}]` : NOT_FOUND_ANSWER;
}
