import Router from '@koa/router';
import type { DocChat } from '../../../core/index.js';
import type { Logger } from '../../../core/ports/logger.js';
import { userIdOf } from '../auth.js';
import { answerWithEventStream, wantsEventStream } from '../event-stream.js';
import { historyQuery, parseChatBody } from '../schemas.js';
import { parse } from '../validation.js';

export function chatRoutes(docChat: DocChat, logger: Logger): Router {
  const router = new Router();

  router.post('/chat/completions', async (ctx) => {
    const input = parseChatBody(ctx.request.body);
    const question = {
      userId: userIdOf(ctx),
      sessionId: input.sessionId,
      message: input.message,
      institution: input.institution,
      filters: input.filters,
    };
    if (wantsEventStream(ctx)) {
      await answerWithEventStream(ctx, logger, (signal) => docChat.askQuestion.stream(question, signal));
      return;
    }
    const result = await docChat.askQuestion.execute(question);
    ctx.body = { success: true, data: result.answer, sources: result.sources };
  });

  router.get('/chat/history/:sessionId', async (ctx) => {
    const { page } = parse(historyQuery, ctx.query);
    const { messages, total } = await docChat.getChatHistory.execute({ userId: userIdOf(ctx), sessionId: ctx.params.sessionId, page });
    ctx.body = {
      success: true,
      // Assistant messages carry the sources their answer cited, as the chat answer gave them.
      data: messages.map((m) => ({
        role: m.role,
        content: m.content,
        createdAt: m.createdAt,
        ...(m.role === 'assistant' && { sources: m.sources ?? [] }),
      })),
      total,
    };
  });

  router.delete('/chat/:sessionId', async (ctx) => {
    await docChat.clearChat.execute({ userId: userIdOf(ctx), sessionId: ctx.params.sessionId });
    ctx.status = 204;
  });

  return router;
}
