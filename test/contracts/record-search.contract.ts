import { expect } from 'chai';
import type { ChatMessage } from '../../core/domain/model.js';
import type { ChatRepo } from '../../core/ports/chat-repo.js';
import type { RecordSearch } from '../../core/ports/record-search.js';
import type { SessionRepo } from '../../core/ports/session-repo.js';

export interface RecordSearchSubject {
  sessions: SessionRepo;
  chats: ChatRepo;
  search: RecordSearch;
  cleanup(): Promise<void>;
}

const at = (n: number) => `2026-01-01T00:00:0${n}.000Z`;
const message = (id: string, sessionId: string, role: ChatMessage['role'], content: string, n = 0): ChatMessage => ({
  id, sessionId, role, content, createdAt: at(n),
});

/** Behaviour every RecordSearch must have, on the records its store holds (written through the repositories). */
export function recordSearchContract(name: string, makeSubject: () => Promise<RecordSearchSubject>): void {
  describe(`RecordSearch contract: ${name}`, () => {
    let s: RecordSearchSubject;

    beforeEach(async () => {
      s = await makeSubject();
      await s.sessions.create({ id: 's1', label: 'Quarterly revenue review', userId: 'u1', createdAt: at(1) });
      await s.sessions.create({ id: 's2', label: 'Receipts from the trip', userId: 'u1', createdAt: at(2) });
      await s.sessions.create({ id: 's3', label: 'Revenue of another user', userId: 'u2', createdAt: at(3) });
      await s.chats.appendExchange(
        message('m1', 's1', 'user', 'What were the total revenues in 2023?', 4),
        message('m2', 's1', 'assistant', 'Total revenue was 4.2 billion dollars in 2023, up from 3.9 billion.', 5),
      );
      await s.chats.appendExchange(
        message('m3', 's2', 'user', 'How much did the taxi from the airport cost?', 6),
        message('m4', 's2', 'assistant', 'The taxi cost 42 euros, tip included.', 7),
      );
      await s.chats.appendExchange(
        message('m5', 's3', 'user', 'What were the total revenues of the airline?', 8),
        message('m6', 's3', 'assistant', 'Revenues were 12 billion.', 9),
      );
    });

    afterEach(async () => s.cleanup());

    it('finds the user’s sessions by name and messages by text, matching stems (revenues → revenue)', async () => {
      const found = await s.search.search({ userId: 'u1', text: 'revenues', limit: 10 });
      expect(found.sessions.map((m) => m.sessionId)).to.deep.equal(['s1']);
      expect(found.sessions[0]).to.deep.equal({ sessionId: 's1', label: 'Quarterly revenue review', createdAt: at(1) });
      expect(found.messages.map((m) => m.messageId)).to.have.members(['m1', 'm2']);
      const m2 = found.messages.find((m) => m.messageId === 'm2')!;
      expect(m2).to.include({ sessionId: 's1', sessionLabel: 'Quarterly revenue review', role: 'assistant', createdAt: at(5) });
      expect(m2.excerpt).to.include('Total revenue was 4.2 billion dollars');
    });

    it('never returns another user’s sessions or messages', async () => {
      const found = await s.search.search({ userId: 'u2', text: 'revenue', limit: 10 });
      expect(found.sessions.map((m) => m.sessionId)).to.deep.equal(['s3']);
      expect(found.messages.map((m) => m.messageId)).to.have.members(['m5', 'm6']);
      const none = await s.search.search({ userId: 'u1', text: 'airline', limit: 10 });
      expect(none).to.deep.equal({ sessions: [], messages: [] });
      expect(await s.search.search({ userId: 'nobody', text: 'revenue', limit: 10 })).to.deep.equal({ sessions: [], messages: [] });
    });

    it('needs every content word of the query, in any order', async () => {
      const found = await s.search.search({ userId: 'u1', text: 'taxi airport', limit: 10 });
      expect(found.messages.map((m) => m.messageId)).to.deep.equal(['m3']);
      const reversed = await s.search.search({ userId: 'u1', text: 'cost taxi', limit: 10 });
      expect(reversed.messages.map((m) => m.messageId)).to.have.members(['m3', 'm4']);
      expect((await s.search.search({ userId: 'u1', text: 'taxi penguin', limit: 10 })).messages).to.deep.equal([]);
    });

    it('takes the query’s punctuation and search syntax literally', async () => {
      for (const text of ['"taxi', 'taxi*', 'NEAR(taxi cost)', 'taxi OR revenue', "taxi' --", 'content:taxi', '(taxi) & !cost']) {
        const found = await s.search.search({ userId: 'u1', text, limit: 10 });
        expect(found.messages.map((m) => m.sessionId), text).to.satisfy((ids: string[]) => ids.every((id) => id === 's2'));
      }
      expect(await s.search.search({ userId: 'u1', text: '?!…', limit: 10 })).to.deep.equal({ sessions: [], messages: [] });
    });

    it('returns at most `limit` of each', async () => {
      const found = await s.search.search({ userId: 'u1', text: 'revenue', limit: 1 });
      expect(found.messages).to.have.length(1);
      expect(found.sessions).to.have.length(1);
    });

    it('follows renames, cleared chats and deleted sessions', async () => {
      await s.sessions.rename('s2', 'Travel expenses');
      expect((await s.search.search({ userId: 'u1', text: 'receipts', limit: 10 })).sessions).to.deep.equal([]);
      expect((await s.search.search({ userId: 'u1', text: 'travel', limit: 10 })).sessions.map((m) => m.label)).to.deep.equal(['Travel expenses']);
      expect((await s.search.search({ userId: 'u1', text: 'taxi', limit: 10 })).messages[0].sessionLabel).to.equal('Travel expenses');
      await s.chats.deleteBySession('s2');
      expect((await s.search.search({ userId: 'u1', text: 'taxi', limit: 10 })).messages).to.deep.equal([]);
      await s.sessions.delete('s1');
      expect(await s.search.search({ userId: 'u1', text: 'revenue', limit: 10 })).to.deep.equal({ sessions: [], messages: [] });
    });
  });
}
