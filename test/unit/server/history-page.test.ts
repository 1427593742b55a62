import { expect } from 'chai';
import type { ChatMessage } from '../../../core/domain/model.js';
import { historyBody, HistoryPages } from '../../../server/http/history-page.js';

function turns(n: number, from = 0): ChatMessage[] {
  return Array.from({ length: n }, (_, i): ChatMessage => {
    const k = from + i;
    return k % 2 === 0
      ? { id: `m${k}`, sessionId: 's', role: 'user', content: `Question ${k} «naïve» "quoted" \u2028 😀`, createdAt: new Date(1_700_000_000_000 + k).toISOString() }
      : { id: `m${k}`, sessionId: 's', role: 'assistant', content: `Answer ${k} [1]`, createdAt: new Date(1_700_000_000_000 + k).toISOString(),
        ...(k % 4 === 1 ? { sources: [{ filename: 'a.pdf', page: k, excerpt: 'x\ny', score: 0.5, ingestId: 'j', cited: true }] } : {}) };
  });
}

describe('history page bodies built from each turn\'s kept JSON bytes', () => {
  it('are byte for byte the JSON of the page object, first built and when read again', () => {
    const pages = new HistoryPages();
    for (const [messages, total] of [[turns(20), 40], [turns(20), 41], [turns(7, 20), 27], [[], 0]] as const) {
      const expected = JSON.stringify(historyBody(messages, total));
      expect(pages.body(messages, total).toString('utf8')).to.equal(expected);
      expect(pages.body(messages, total).toString('utf8'), 'again, from the kept bytes').to.equal(expected);
      expect(JSON.parse(pages.body(messages, total).toString('utf8'))).to.deep.equal(historyBody(messages, total));
    }
  });

  it('an assistant turn without sources gets an empty list; a user turn none', () => {
    const [user, assistant] = turns(4).slice(2);
    const body = JSON.parse(new HistoryPages().body([user, { ...assistant, sources: undefined }], 2).toString('utf8'));
    expect(body.data[0]).to.not.have.property('sources');
    expect(body.data[1].sources).to.deep.equal([]);
  });

  it('keeps at most its bound of turns and still builds pages of turns it no longer keeps', () => {
    const pages = new HistoryPages(5);
    const messages = turns(12);
    pages.body(messages, 12);
    expect(pages.body(messages, 12).toString('utf8')).to.equal(JSON.stringify(historyBody(messages, 12)));
    expect((pages as unknown as { turns: Map<string, Buffer> }).turns.size).to.equal(5);
  });
});
