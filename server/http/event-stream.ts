import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import type { AskQuestionEvent } from '../../core/use-cases/ask-question.js';
import type { Logger } from '../../core/ports/logger.js';
import { errorResponse } from './errors.js';

export const EVENT_STREAM = 'text/event-stream';

/** Whether the client asked for server-sent events rather than JSON (an Accept of text/event-stream, not preferring JSON). */
export function wantsEventStream(ctx: Context): boolean {
  return ctx.accepts('application/json', EVENT_STREAM) === EVENT_STREAM;
}

/** One server-sent event: its name and a JSON data line (JSON never holds a raw newline, so one line is enough). */
export function sseFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function frameOf(event: AskQuestionEvent): string {
  const { type, ...data } = event;
  return sseFrame(type, data);
}

/**
 * Answers the request with the question's events as server-sent events. `start` gets the signal that aborts when the
 * client goes away and returns the events; the first one is awaited before anything is sent, so a failure up to then
 * (validation, the session, retrieval, an answerer that does not start) propagates as an ordinary error with its
 * status and JSON body. After that a failure becomes an `error` event carrying the route's error body, and the stream ends.
 */
export async function answerWithEventStream(
  ctx: Context,
  logger: Logger,
  start: (signal: AbortSignal) => AsyncGenerator<AskQuestionEvent, void, undefined>,
): Promise<void> {
  const controller = new AbortController();
  // 'close' comes when the connection is gone, or after the response finished (the abort is then a no-op).
  const abort = () => controller.abort();
  ctx.res.once('close', abort);
  const events = start(controller.signal);
  let first: IteratorResult<AskQuestionEvent, void>;
  try {
    first = await events.next();
  } catch (error) {
    ctx.res.off('close', abort);
    // The client left before the answer started: there is no one to answer, and nothing went wrong on our side.
    if (controller.signal.aborted) {
      ctx.respond = false;
      return;
    }
    throw error;
  }

  const body = new PassThrough();
  ctx.status = 200;
  ctx.type = EVENT_STREAM;
  ctx.set('Cache-Control', 'no-cache');
  // Reverse proxies (nginx) would otherwise buffer the stream.
  ctx.set('X-Accel-Buffering', 'no');
  ctx.body = body;

  void (async () => {
    try {
      for (let next = first; !next.done; next = await events.next()) {
        if (controller.signal.aborted) break;
        body.write(frameOf(next.value));
      }
    } catch (error) {
      if (!controller.signal.aborted) {
        const { status, body: errorBody } = errorResponse(error, 'chat');
        logger.error('streamed answer failed', {
          requestId: ctx.state.requestId, status,
          error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        });
        body.write(sseFrame('error', errorBody));
      }
    } finally {
      await events.return().catch(() => undefined);
      body.end();
    }
  })();
}
