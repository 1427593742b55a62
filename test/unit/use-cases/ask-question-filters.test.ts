import { expect } from 'chai';
import { ValidationError } from '../../../core/domain/errors.js';
import { coreFixture } from '../../support/core-fixture.js';

const rejection = (p: Promise<unknown>) => p.then(() => expect.fail('expected a rejection'), (e: unknown) => e);

describe('AskQuestion tag filters', () => {
  /** One session with three policies: Acme 2023, Acme 2024, Globex 2024. */
  async function threePolicies() {
    const f = coreFixture();
    const { session } = await f.sessionWithUpload('u1', 'The refund policy of Acme allows returns within 30 days.', 'acme-2023.pdf', { institution: 'acme', year: '2023' });
    for (const [name, text, tags] of [
      ['acme-2024.pdf', 'The refund policy of Acme allows returns within 45 days.', { institution: 'acme', year: '2024' }],
      ['globex-2024.pdf', 'The refund policy of Globex allows returns within 14 days.', { institution: 'globex', year: '2024' }],
    ] as const) {
      const upload = await f.docChat.createUploadUrl.execute({ userId: 'u1', filename: name, contentType: 'application/pdf', contentSize: Buffer.byteLength(text) });
      f.blobs.put(upload.key, text, 'application/pdf');
      await f.docChat.startIngestion.execute({ userId: 'u1', sessionId: session.id, key: upload.key, filename: name, tags });
    }
    await f.drain();
    const ask = async (filters?: Record<string, string | string[]>, institution?: string) =>
      (await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'What is the refund policy?', filters, institution }))
        .sources.map((s) => s.filename).sort();
    return { f, session, ask };
  }

  it('a value, a list (OR), several tags (AND), and the institution shorthand with a filter (both hold)', async () => {
    const { ask } = await threePolicies();
    expect(await ask()).to.deep.equal(['acme-2023.pdf', 'acme-2024.pdf', 'globex-2024.pdf']);
    expect(await ask({ year: '2024' })).to.deep.equal(['acme-2024.pdf', 'globex-2024.pdf']);
    expect(await ask({ year: ['2023', '2024'], institution: 'acme' })).to.deep.equal(['acme-2023.pdf', 'acme-2024.pdf']);
    expect(await ask({ year: '2024', institution: ['acme', 'globex'] })).to.deep.equal(['acme-2024.pdf', 'globex-2024.pdf']);
    expect(await ask({ year: '2024' }, 'acme')).to.deep.equal(['acme-2024.pdf']);
    expect(await ask({ institution: 'globex' }, 'acme')).to.deep.equal([]);
    expect(await ask({ colour: 'red' })).to.deep.equal([]);
  });

  it('refuses bad filters with a ValidationError naming the problem, and stores nothing', async () => {
    const { f, session } = await threePolicies();
    const cases: [unknown, RegExp][] = [
      [Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`t${i}`, 'x'])), /at most 10 tags/],
      [{ year: Array.from({ length: 51 }, (_, i) => String(i)) }, /at most 50 values/],
      [{ year: [] }, /at least one value/],
      [{ ['t'.repeat(65)]: 'x' }, /1\.\.64 characters/],
      [{ '': 'x' }, /1\.\.64 characters/],
      [{ year: 'x'.repeat(501) }, /at most 500 characters/],
      [{ year: [2024] }, /must be strings/],
      [['year'], /must be an object/],
    ];
    for (const [filters, message] of cases) {
      const error = await rejection(
        f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'refund?', filters: filters as Record<string, string> }),
      );
      expect(error, JSON.stringify(filters).slice(0, 80)).to.be.instanceOf(ValidationError);
      expect((error as Error).message).to.match(message);
    }
    expect(f.chats.rows).to.deep.equal([]);
  });
});
