import { expect } from 'chai';
import { NotFoundError, SESSION_NOT_FOUND, ValidationError } from '../../../core/domain/errors.js';
import type { ChatMessage } from '../../../core/domain/model.js';
import { ClearChat } from '../../../core/use-cases/clear-chat.js';
import { CreateSession } from '../../../core/use-cases/create-session.js';
import { GetChatHistory } from '../../../core/use-cases/get-chat-history.js';
import { ListSessions } from '../../../core/use-cases/list-sessions.js';
import { RenameSession } from '../../../core/use-cases/rename-session.js';
import { ManualClock, SequentialIds } from '../../fakes/fixed-clock-and-ids.js';
import { InMemoryChatRepo, InMemorySessionRepo } from '../../fakes/in-memory-repos.js';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(() => expect.fail('expected a rejection'), (e: unknown) => e);
}

describe('session use cases', () => {
  let sessions: InMemorySessionRepo;
  let create: CreateSession;
  beforeEach(() => {
    sessions = new InMemorySessionRepo();
    create = new CreateSession(sessions, new SequentialIds('s'), new ManualClock());
  });

  it('creates a session owned by the caller with a trimmed label and ISO timestamp', async () => {
    const session = await create.execute({ userId: 'u1', label: '  Tax 2024  ' });
    expect(session).to.deep.equal({ id: 's-0001', label: 'Tax 2024', userId: 'u1', createdAt: '2026-01-01T00:00:00.000Z' });
    expect(await sessions.findById('s-0001')).to.deep.equal(session);
  });

  it('refuses empty and over-long labels and stores nothing', async () => {
    expect(await rejection(create.execute({ userId: 'u1', label: '   ' }))).to.be.instanceOf(ValidationError);
    expect(await rejection(create.execute({ userId: 'u1', label: 'x'.repeat(201) }))).to.be.instanceOf(ValidationError);
    expect(sessions.rows.size).to.equal(0);
  });

  it('lists only the caller’s sessions', async () => {
    await create.execute({ userId: 'u1', label: 'a' });
    await create.execute({ userId: 'u2', label: 'b' });
    await create.execute({ userId: 'u1', label: 'c' });
    const mine = await new ListSessions(sessions).execute({ userId: 'u1' });
    expect(mine.map((s) => s.label)).to.deep.equal(['a', 'c']);
  });

  it('renames the caller’s session; a foreign or unknown one is "Session not found" and unchanged', async () => {
    const own = await create.execute({ userId: 'u1', label: 'old' });
    const rename = new RenameSession(sessions);
    expect((await rename.execute({ userId: 'u1', sessionId: own.id, label: 'new' })).label).to.equal('new');
    for (const attempt of [{ userId: 'u2', sessionId: own.id }, { userId: 'u1', sessionId: 'nope' }]) {
      const error = await rejection(rename.execute({ ...attempt, label: 'hijacked' }));
      expect(error).to.be.instanceOf(NotFoundError);
      expect((error as Error).message).to.equal(SESSION_NOT_FOUND);
    }
    expect((await sessions.findById(own.id))?.label).to.equal('new');
  });
});

describe('chat history and clear chat', () => {
  let sessions: InMemorySessionRepo;
  let chats: InMemoryChatRepo;
  beforeEach(async () => {
    sessions = new InMemorySessionRepo();
    chats = new InMemoryChatRepo(sessions);
    await sessions.create({ id: 's1', label: 'l', userId: 'u1', createdAt: '2026-01-01T00:00:00.000Z' });
    for (let i = 0; i < 45; i++) {
      chats.rows.push({ id: `m${i}`, sessionId: 's1', role: i % 2 ? 'assistant' : 'user', content: `c${i}`, createdAt: '2026-01-01T00:00:00.000Z' } as ChatMessage);
    }
  });

  it('pages 20 at a time from the oldest; pages below 0 read as 0', async () => {
    const history = new GetChatHistory(chats);
    const page = async (n: number) => (await history.execute({ userId: 'u1', sessionId: 's1', page: n })).messages.map((m) => m.content);
    expect(await page(0)).to.have.length(20);
    expect((await page(0))[0]).to.equal('c0');
    expect((await page(1))[0]).to.equal('c20');
    expect(await page(2)).to.deep.equal(['c40', 'c41', 'c42', 'c43', 'c44']);
    expect(await page(3)).to.deep.equal([]);
    expect(await page(-5)).to.deep.equal(await page(0));
    expect((await history.execute({ userId: 'u1', sessionId: 's1', page: 7 })).total).to.equal(45);
  });

  it('hides another user’s history behind "Session not found"', async () => {
    const error = await rejection(new GetChatHistory(chats).execute({ userId: 'u2', sessionId: 's1', page: 0 }));
    expect(error).to.be.instanceOf(NotFoundError);
    const missing = await rejection(new GetChatHistory(chats).execute({ userId: 'u1', sessionId: 'gone', page: 0 }));
    expect(missing).to.be.instanceOf(NotFoundError).and.to.have.property('message', (error as Error).message);
  });

  it('clears only the owner’s session messages, and refuses a foreign session without deleting', async () => {
    chats.rows.push({ id: 'other', sessionId: 's2', role: 'user', content: 'keep', createdAt: '2026-01-01T00:00:00.000Z' });
    const clear = new ClearChat(sessions, chats);
    expect(await rejection(clear.execute({ userId: 'u2', sessionId: 's1' }))).to.be.instanceOf(NotFoundError);
    expect(chats.rows).to.have.length(46);
    await clear.execute({ userId: 'u1', sessionId: 's1' });
    expect(chats.rows.map((m) => m.id)).to.deep.equal(['other']);
    expect(await sessions.findById('s1')).to.not.equal(null);
  });
});
