import { expect } from 'chai';
import { ValidationError } from '../../../core/domain/errors.js';
import { coreFixture } from '../../support/core-fixture.js';

const rejection = (p: Promise<unknown>) => p.then(() => expect.fail('expected a rejection'), (e: unknown) => e);

describe('AskQuestion with chosen documents', () => {
  /** One session with three policies, and a fourth document still waiting to be read. */
  async function policies() {
    const f = coreFixture();
    const { session, job: acme } = await f.sessionWithUpload('u1', 'The refund policy of Acme allows returns within 30 days.', 'acme.pdf', { institution: 'acme' });
    const add = async (name: string, text: string, tags: Record<string, string>) => {
      const upload = await f.docChat.createUploadUrl.execute({ userId: 'u1', filename: name, contentType: 'application/pdf', contentSize: Buffer.byteLength(text) });
      f.blobs.put(upload.key, text, 'application/pdf');
      return f.docChat.startIngestion.execute({ userId: 'u1', sessionId: session.id, key: upload.key, filename: name, tags });
    };
    const globex = await add('globex.pdf', 'The refund policy of Globex allows returns within 14 days.', { institution: 'globex' });
    const initech = await add('initech.pdf', 'The refund policy of Initech allows returns within 60 days.', { institution: 'initech' });
    await f.drain();
    const waiting = await add('later.pdf', 'The refund policy of Later Inc allows returns within 90 days.', {});
    const ask = async (documents?: string[], filters?: Record<string, string>) =>
      (await f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'What is the refund policy?', documents, filters }))
        .sources.map((s) => s.filename).sort();
    return { f, session, ask, ids: { acme: acme.id, globex: globex.id, initech: initech.id, waiting: waiting.id } };
  }

  it('answers only from the chosen documents, with the tag filters too, and from none that is not read yet', async () => {
    const { ask, ids } = await policies();
    expect(await ask()).to.deep.equal(['acme.pdf', 'globex.pdf', 'initech.pdf']);
    expect(await ask([ids.globex])).to.deep.equal(['globex.pdf']);
    expect(await ask([ids.acme, ids.initech, ids.acme])).to.deep.equal(['acme.pdf', 'initech.pdf']);
    expect(await ask([ids.acme, ids.initech], { institution: 'initech' })).to.deep.equal(['initech.pdf']);
    expect(await ask([ids.globex], { institution: 'acme' })).to.deep.equal([]);
    expect(await ask([ids.waiting]), 'a document not read yet has nothing to cite').to.deep.equal([]);
  });

  it('refuses an id that is no document of the session (another session’s, another user’s, made up) and stores nothing', async () => {
    const { f, session, ids } = await policies();
    const other = await f.sessionWithUpload('u1', 'Another session’s refund policy.', 'other.pdf');
    const stranger = await f.sessionWithUpload('u2', 'A stranger’s refund policy.', 'stranger.pdf');
    await f.drain();
    for (const id of [other.job.id, stranger.job.id, 'no-such-document']) {
      const error = await rejection(
        f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message: 'refund?', documents: [ids.acme, id] }),
      );
      expect(error).to.be.instanceOf(ValidationError);
      expect((error as Error).message).to.equal(`documents: "${id}" is not a document of this session`);
    }
    expect(f.chats.rows).to.deep.equal([]);
  });
});
