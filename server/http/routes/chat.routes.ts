import Router from '@koa/router';
import type { Context } from 'koa';
import type { DocChat } from '../../../core/index.js';
import type { Source } from '../../../core/domain/model.js';
import type { Logger } from '../../../core/ports/logger.js';
import type { AskQuestionEvent } from '../../../core/use-cases/ask-question.js';
import { userIdOf } from '../auth.js';
import { answerWithEventStream, wantsEventStream } from '../event-stream.js';
import type { QuestionAdmission } from '../question-admission.js';
import { HistoryPages } from '../history-page.js';
import { historyQuery, parseChatBody } from '../schemas.js';
import { parse } from '../validation.js';

export function chatRoutes(docChat: DocChat, logger: Logger, admission?: QuestionAdmission): Router {
  const router = new Router();
  const historyPages = new HistoryPages();

  router.post('/chat/completions', async (ctx) => {
    const input = parseChatBody(ctx.request.body);
    const question = {
      userId: userIdOf(ctx),
      sessionId: input.sessionId,
      message: input.message,
      institution: input.institution,
      filters: input.filters,
      documents: input.documents,
    };
    // Counted in before any work, out when the answer is sent or abandoned (for a stream: when the stream ends).
    const release = admission?.admit(question.userId) ?? (() => undefined);
    const events = (signal: AbortSignal) => releasing(docChat.askQuestion.stream(question, signal), release);
    try {
      if (wantsEventStream(ctx)) {
        await answerWithEventStream(ctx, logger, events);
        return;
      }
      await answerWithJson(ctx, events);
    } catch (error) {
      release();
      throw error;
    }
  });

  router.get('/chat/history/:sessionId', async (ctx) => {
    const { page } = parse(historyQuery, ctx.query);
    const { messages, total } = await docChat.getChatHistory.execute({ userId: userIdOf(ctx), sessionId: ctx.params.sessionId, page });
    ctx.type = 'application/json';
    ctx.body = historyPages.body(messages, total);
  });

  router.delete('/chat/:sessionId', async (ctx) => {
    await docChat.clearChat.execute({ userId: userIdOf(ctx), sessionId: ctx.params.sessionId });
    ctx.status = 204;
  });

  return router;
}

/**
 * The answer as one JSON body: the same events as the stream, joined. A client that closes the connection first
 * aborts the question (its queue slot or worker thread is freed, nothing is stored) and gets no answer.
 */
async function answerWithJson(ctx: Context, start: (signal: AbortSignal) => AsyncGenerator<AskQuestionEvent, void, undefined>): Promise<void> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  ctx.res.once('close', abort);
  let text = '';
  let sources: Source[] = [];
  let saved = true;
  try {
    for await (const event of start(controller.signal)) {
      if (event.type === 'delta') text += event.text;
      else if (event.type === 'sources') sources = event.sources;
      else if ('saved' in event) saved = event.saved;
    }
  } catch (error) {
    if (controller.signal.aborted) {
      ctx.respond = false;
      return;
    }
    throw error;
  } finally {
    ctx.res.off('close', abort);
  }
  ctx.body = { success: true, data: text, sources, ...(!saved && { saved: false }) };
}

/** The events, then `release` once they end however they end (done, failed, or abandoned by the consumer). */
async function* releasing<T>(events: AsyncGenerator<T, void, undefined>, release: () => void): AsyncGenerator<T, void, undefined> {
  try {
    yield* events;
  } finally {
    release();
  }
}
