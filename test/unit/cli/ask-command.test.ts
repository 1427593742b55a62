import { expect } from 'chai';
import { ask } from '../../../server/cli/ask-command.js';
import type { AnswerJson, DocChatClient } from '../../../server/cli/doc-chat-client.js';

/** A client that knows one session and answers every question with `answer` (the service's part is tested in e2e). */
function clientAnswering(answer: AnswerJson): DocChatClient {
  return {
    listSessions: async () => [{ id: 's1', label: 'Papers', createdAt: '2026-01-01T00:00:00.000Z' }],
    ask: async () => answer,
  } as unknown as DocChatClient;
}

const source = (filename: string, page: number, cited?: boolean) => ({ filename, page, excerpt: 'x', ...(cited === undefined ? {} : { cited }) });

describe('doc-chat ask output', () => {
  it('lists the pages the answer quotes, each once, then apart the pages found but not quoted', async () => {
    const answer = { answer: '“Fees are 45 dollars.” [1]', sources: [source('a.pdf', 2, true), source('b.pdf', 1, false), source('a.pdf', 2, true), source('a.pdf', 3, false), source('a.pdf', 2, false)] };
    expect(await ask(clientAnswering(answer), 'Papers', 'Fees?')).to.equal(
      '“Fees are 45 dollars.” [1]\n\nSources:\n  a.pdf, page 2\nAlso found, not quoted:\n  b.pdf, page 1\n  a.pdf, page 3\n',
    );
  });

  it('does not list the quoted pages again under an answer that lists them itself', async () => {
    const answer = { answer: '“Fees are 45 dollars.” [1]\n\nSources: [1] a.pdf, page 2', sources: [source('a.pdf', 2, true), source('b.pdf', 1, false)] };
    expect(await ask(clientAnswering(answer), 'Papers', 'Fees?')).to.equal(
      '“Fees are 45 dollars.” [1]\n\nSources: [1] a.pdf, page 2\n\nAlso found, not quoted:\n  b.pdf, page 1\n',
    );
  });

  it('counts sources without `cited` (an older service) as quoted, and says when there are none', async () => {
    expect(await ask(clientAnswering({ answer: 'A.', sources: [source('a.pdf', 1)] }), 'Papers', 'Q?')).to.equal('A.\n\nSources:\n  a.pdf, page 1\n');
    expect(await ask(clientAnswering({ answer: 'Not found.', sources: [] }), 'Papers', 'Q?')).to.equal('Not found.\n\nNo sources.\n');
  });

  it('names the unit of a document without pages instead of its page', async () => {
    const answer = { answer: 'A.', sources: [{ ...source('budget.xlsx', 1, true), unit: 'Sheet Q3' }, { ...source('deck.pptx', 2, false), unit: 'Slide 2' }] };
    expect(await ask(clientAnswering(answer), 'Papers', 'Q?')).to.equal('A.\n\nSources:\n  budget.xlsx, Sheet Q3\nAlso found, not quoted:\n  deck.pptx, Slide 2\n');
  });
});
