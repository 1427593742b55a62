import { expect } from 'chai';
import type { Embedder } from '../../core/ports/embedder.js';
import { cosine } from '../support/vectors.js';

export interface EmbedderSubject {
  embedder: Embedder;
  /** Called once after the suite (stop a server…). */
  close?(): Promise<void>;
}

export interface EmbedderContractOptions {
  /**
   * How far two embeddings of the same text may be apart, as 1 − cosine (default 1e-6). A real model may batch
   * with slightly different numerics than it embeds one text.
   */
  tolerance?: number;
  /** Mocha timeout of each test (default: mocha's). */
  timeoutMs?: number;
}

/**
 * What every Embedder must do: vectors of one length for documents and queries, the same vector for the same text
 * (alone or in a batch, in order, across batch boundaries), [] for no texts, and a query nearer a passage that
 * answers it than an unrelated one.
 */
export function embedderContract(name: string, makeSubject: () => EmbedderSubject | Promise<EmbedderSubject>, options: EmbedderContractOptions = {}): void {
  describe(`Embedder contract: ${name}`, function () {
    if (options.timeoutMs) this.timeout(options.timeoutMs);
    const tolerance = options.tolerance ?? 1e-6;
    let subject: EmbedderSubject | undefined;
    let embedder: Embedder;

    before(async function () {
      subject = await makeSubject();
      embedder = subject.embedder;
    });

    after(async function () {
      await subject?.close?.();
      subject = undefined;
    });

    const expectSame = (a: number[], b: number[], what: string) => {
      expect(a.length, `${what}: length`).to.equal(b.length);
      expect(1 - cosine(a, b), `${what}: 1 − cosine`).to.be.at.most(tolerance);
    };
    const expectVector = (v: unknown) => {
      expect(v).to.be.an('array').that.is.not.empty;
      for (const x of v as unknown[]) expect(Number.isFinite(x), 'finite number').to.equal(true);
    };

    const texts = [
      'The X200 drill comes with a warranty period of 24 months from the date of purchase.',
      'Bananas are rich in potassium and vitamin B6.',
      'Alpine glaciers retreat as summer temperatures climb.',
    ];

    it('embeds a query as a non-empty vector of finite numbers', async function () {
      expectVector(await embedder.embedQuery('How long is the warranty period?'));
    });

    it('gives one vector per document, all as long as a query vector', async function () {
      const vectors = await embedder.embedDocuments(texts);
      expect(vectors).to.have.length(texts.length);
      const query = await embedder.embedQuery('warranty period');
      for (const v of vectors) {
        expectVector(v);
        expect(v).to.have.length(query.length);
      }
    });

    it('is deterministic: the same text gives the same vector', async function () {
      const [a] = await embedder.embedDocuments([texts[0]]);
      const [b] = await embedder.embedDocuments([texts[0]]);
      expectSame(a, b, 'document twice');
      expectSame(await embedder.embedQuery(texts[1]), await embedder.embedQuery(texts[1]), 'query twice');
    });

    it('embeds a batch as it embeds each text alone, in order', async function () {
      const batch = await embedder.embedDocuments(texts);
      for (let i = 0; i < texts.length; i++) {
        const [single] = await embedder.embedDocuments([texts[i]]);
        expectSame(batch[i], single, `text ${i}`);
      }
    });

    it('returns [] for no texts', async function () {
      expect(await embedder.embedDocuments([])).to.deep.equal([]);
    });

    it('keeps order across many texts (more than one request batch)', async function () {
      const many = Array.from({ length: 70 }, (_, i) => `Passage ${i}: item number ${i} is stored on shelf ${i * 7} in aisle ${i % 9}.`);
      const vectors = await embedder.embedDocuments(many);
      expect(vectors).to.have.length(many.length);
      for (const i of [0, 31, 32, 33, 64, 69]) {
        const [single] = await embedder.embedDocuments([many[i]]);
        expectSame(vectors[i], single, `text ${i}`);
      }
      expect(cosine(vectors[0], vectors[69])).to.be.below(1 - tolerance);
    });

    it('puts a query nearer a passage that answers it than an unrelated one', async function () {
      const [relevant, unrelated] = await embedder.embedDocuments([texts[0], texts[1]]);
      const query = await embedder.embedQuery('How long is the warranty period of the X200 drill?');
      expect(cosine(query, relevant)).to.be.greaterThan(cosine(query, unrelated));
    });

    it('embeds a blank text and a very long text with the usual length', async function () {
      const query = await embedder.embedQuery('warranty');
      const [blank, long] = await embedder.embedDocuments(['', 'The warranty covers the motor and the gearbox. '.repeat(400)]);
      expectVector(blank);
      expectVector(long);
      expect(blank).to.have.length(query.length);
      expect(long).to.have.length(query.length);
    });
  });
}
