import { Ollama } from 'ollama';
import { UpstreamUnavailableError } from '../../core/domain/errors.js';

export const OLLAMA_DEPENDENCY = 'ollama';
export const DEFAULT_OLLAMA_TIMEOUT_MS = 120_000;
export const DEFAULT_OLLAMA_CHECK_TIMEOUT_MS = 5_000;

/**
 * One Ollama server as the adapters use it: every call gets its own deadline (an AbortController whose signal is
 * handed to fetch, so the HTTP request is really cancelled), and every failure becomes an UpstreamUnavailableError
 * that says what to do: start the server, pull the model, or look at the server's log.
 *
 * The `ollama` client only takes an abort signal for streamed requests, so the deadline is applied through the
 * client's `fetch` option: a fresh client per call, whose fetch carries that call's signal (a client is only config).
 */
export class OllamaConnection {
  readonly host: string;

  constructor(host: string, readonly timeoutMs: number = DEFAULT_OLLAMA_TIMEOUT_MS) {
    if (!host) throw new Error('Ollama host is required');
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new Error('timeoutMs must be a positive number');
    this.host = host.replace(/\/+$/, '');
  }

  /** Runs `call` with a client whose requests are aborted after `timeoutMs`; maps every failure. */
  async request<T>(what: string, model: string | undefined, call: (client: Ollama) => Promise<T>, timeoutMs = this.timeoutMs): Promise<T> {
    const controller = new AbortController();
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
        reject(new Error('deadline'));
      }, timeoutMs);
    });
    const client = new Ollama({
      host: this.host,
      fetch: (input, init) => fetch(input, { ...init, signal: controller.signal }),
    });
    try {
      // The race is a belt to fetch's braces: the deadline holds even if something downstream ignores the signal.
      return await Promise.race([call(client), deadline]);
    } catch (error) {
      if (timedOut) {
        throw new UpstreamUnavailableError(OLLAMA_DEPENDENCY, `Ollama at ${this.host} did not finish ${what} within ${timeoutMs} ms`, {
          cause: error,
        });
      }
      throw mapOllamaError(error, { host: this.host, what, model });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A streamed call: yields what `call`'s stream yields. The request is aborted when `signal` aborts (the caller
   * went away) or after `timeoutMs` for the whole stream; every failure, also one in the middle of the stream (an
   * error line, a dropped connection), becomes an UpstreamUnavailableError.
   */
  async *stream<T>(
    what: string,
    model: string | undefined,
    signal: AbortSignal,
    call: (client: Ollama) => Promise<AsyncIterable<T>>,
  ): AsyncGenerator<T, void, undefined> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    const both = AbortSignal.any([signal, deadline]);
    const client = new Ollama({ host: this.host, fetch: (input, init) => fetch(input, { ...init, signal: both }) });
    try {
      signal.throwIfAborted();
      for await (const part of await call(client)) yield part;
    } catch (error) {
      if (deadline.aborted) {
        throw new UpstreamUnavailableError(OLLAMA_DEPENDENCY, `Ollama at ${this.host} did not finish ${what} within ${this.timeoutMs} ms`, {
          cause: error,
        });
      }
      const mapped = mapOllamaError(error, { host: this.host, what, model });
      if (mapped instanceof UpstreamUnavailableError) throw mapped;
      // An error line in the stream, or the body cut off: the server failed mid-answer.
      throw new UpstreamUnavailableError(OLLAMA_DEPENDENCY, `Ollama at ${this.host} failed while ${what}: ${mapped.message}`, { cause: error });
    }
  }

  /**
   * Readiness: the server answers and `model` is among its local models (GET /api/tags). A model named without a
   * tag matches its ":latest".
   */
  async checkModel(model: string, timeoutMs = Math.min(this.timeoutMs, DEFAULT_OLLAMA_CHECK_TIMEOUT_MS)): Promise<void> {
    const list = await this.request('listing its models', undefined, (client) => client.list(), timeoutMs);
    const names = (list.models ?? []).flatMap((m) => [m.name, m.model]).filter((n): n is string => typeof n === 'string');
    if (!names.some((name) => sameModel(name, model))) {
      throw new UpstreamUnavailableError(
        OLLAMA_DEPENDENCY,
        `Ollama at ${this.host} does not have the model "${model}": run \`ollama pull ${model}\``,
      );
    }
  }
}

/** "llama3.2" and "llama3.2:latest" are the same model; other tags must match exactly. */
export function sameModel(a: string, b: string): boolean {
  const full = (name: string) => (name.includes(':') ? name : `${name}:latest`);
  return full(a.trim()) === full(b.trim());
}

interface ResponseErrorLike {
  name: string;
  message: string;
  error?: string;
  status_code: number;
}

function isResponseError(error: unknown): error is ResponseErrorLike {
  return error instanceof Error && error.name === 'ResponseError' && typeof (error as { status_code?: unknown }).status_code === 'number';
}

/** Turns what the `ollama` client throws into an UpstreamUnavailableError (a missing model names the fix). */
export function mapOllamaError(error: unknown, where: { host: string; what: string; model?: string }): Error {
  if (error instanceof UpstreamUnavailableError) return error;
  const { host, what, model } = where;
  if (isResponseError(error)) {
    const detail = error.error ?? error.message;
    if (error.status_code === 404 && /not found/i.test(detail)) {
      const name = model ?? /model ['"]?([^'"\s]+)['"]? not found/i.exec(detail)?.[1] ?? '<model>';
      return new UpstreamUnavailableError(
        OLLAMA_DEPENDENCY,
        `Ollama at ${host} does not have the model "${name}": run \`ollama pull ${name}\` (${detail})`,
        { cause: error },
      );
    }
    return new UpstreamUnavailableError(OLLAMA_DEPENDENCY, `Ollama at ${host} failed while ${what}: HTTP ${error.status_code} ${detail}`, {
      cause: error,
    });
  }
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
    return new UpstreamUnavailableError(OLLAMA_DEPENDENCY, `Ollama at ${host} did not finish ${what}: the request was aborted`, { cause: error });
  }
  if (error instanceof TypeError && /fetch failed|network|socket/i.test(error.message)) {
    const code = networkCode(error);
    return new UpstreamUnavailableError(
      OLLAMA_DEPENDENCY,
      `Ollama is not reachable at ${host}${code ? ` (${code})` : ''} while ${what}: is the server running?`,
      { cause: error },
    );
  }
  if (error instanceof SyntaxError) {
    // A body that is not JSON: a proxy page, or not Ollama at all.
    return new UpstreamUnavailableError(OLLAMA_DEPENDENCY, `Ollama at ${host} sent an unreadable answer while ${what}`, { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

function networkCode(error: Error): string | undefined {
  let cause: unknown = error.cause;
  for (let depth = 0; cause && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}
