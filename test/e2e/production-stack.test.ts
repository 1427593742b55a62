import fs from 'node:fs';
import { expect } from 'chai';
import type { SqliteDatabase } from '../../adapters/sqlite/database.js';
import type { VectorIndex } from '../../core/ports/vector-index.js';
import { SEMANTIC_SEARCH_UNAVAILABLE_NOTE } from '../../core/rag/answer-notes.js';
import { UPSTREAM_RETRY_AFTER_SECONDS } from '../../server/http/errors.js';
import { TOKENS } from '../../server/tokens.js';
import type { ApiClient } from '../support/api-client.js';
import { ACME, GLOBEX } from '../support/bank-fee-pdfs.js';
import { textPdf } from '../support/make-pdf.js';
import { describeWithCorpus } from '../support/corpus.js';
import { pagedTextPdf } from '../support/generated-documents.js';
import { corpusPath } from '../support/paths.js';
import { presignedUrlSignatureValid } from '../support/presigned-url.js';
import { productionStack, READINESS_NAMES, type DependencyName } from '../support/stacks.js';
import type { TestService } from '../support/test-service.js';

/**
 * The self-hosted configuration end to end, over HTTP, against real servers: an S3 API (s3rver, in process), a
 * real Chroma server (the chromadb package's), and an HTTP server answering as Ollama's API. Never skipped: all three
 * run on this machine without containers. Each dependency is also stopped and started again on the same port with
 * the same data, to see what the API answers meanwhile and that nothing stored is lost.
 */

const PDF = 'application/pdf';
/** A six-page PDF whose first page says when the act was signed; the real 18-page summary runs as a corpus suite. */
const COPYRIGHT = await pagedTextPdf([
  [
    'THE DIGITAL MILLENNIUM COPYRIGHT ACT OF 1998',
    'The Digital Millennium Copyright Act (DMCA) was signed into law by President Clinton on October 28, 1998.',
    'The legislation implements two 1996 World Intellectual Property Organization (WIPO) treaties.',
  ],
  ['TITLE I: WIPO TREATY IMPLEMENTATION', 'Title I implements the WIPO treaties on performances and phonograms.'],
  ['TITLE II: ONLINE COPYRIGHT INFRINGEMENT LIABILITY LIMITATION', 'Safe harbors for online service providers.'],
  ['TITLE III: COMPUTER MAINTENANCE OR REPAIR', 'A copy made while a machine is repaired is no infringement.'],
  ['TITLE IV: MISCELLANEOUS PROVISIONS', 'Distance education and ephemeral recordings for broadcasters.'],
  ['TITLE V: PROTECTION OF CERTAIN ORIGINAL DESIGNS', 'Vessel hull designs are protected for ten years.'],
]);
const HOOLI = await textPdf({
  title: 'Hooli travel policy',
  paragraphs: ['Hooli employees may book economy class flights for trips shorter than six hours.'],
});

/** A second document ahead of the one the storage outage catches (see the object storage outage tests). */
const INITECH = await textPdf({
  title: 'Initech expense policy',
  paragraphs: ['Initech reimburses hotel stays of up to 180 dollars a night on business trips.'],
});

const SERVICE_UNAVAILABLE_CHAT = { success: false, error: 'Service Unavailable' };

describe('production stack over HTTP: S3 (s3rver) + Chroma (real server) + Ollama (fake server)', function () {
  this.timeout(60_000);
  const stack = productionStack();
  let t: TestService;
  let alice: ApiClient;
  let bob: ApiClient;

  const rows = (sql: string, ...params: unknown[]): any[] =>
    t.service.container.get<SqliteDatabase>(TOKENS.SqliteDatabase).raw.prepare(sql).all(...params);

  before(async () => {
    // One ingestion at a time: the object storage outage test holds a job in the queue behind a running one.
    t = await stack.start({ INGEST_CONCURRENCY: '1' });
    alice = await t.as('alice');
    bob = await t.as('bob');
  });
  after(() => stack.close());

  /** Upload URL → PUT with fetch (checked on the way) → the key. */
  async function upload(api: ApiClient, filename: string, bytes: Uint8Array): Promise<string> {
    const res = await api.post('/api/v1/ingest/upload/url', { filename, contentType: PDF, contentSize: bytes.length });
    expect(res.status, res.text).to.equal(200);
    const { signedUrl, key } = res.body.uploadData;
    const put = await api.putToSignedUrl(signedUrl, bytes, PDF);
    expect(put.status, put.text).to.equal(200);
    return key;
  }

  /** POST /ingest/process, then GET /ingest/:id until it is completed or failed; returns the last status record. */
  async function ingest(api: ApiClient, sessionId: string, key: string, filename: string, tags: Record<string, string> = {}) {
    const res = await api.post('/api/v1/ingest/process', { key, filename, session_id: sessionId, tags });
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.have.keys(['data']);
    return api.waitForJob(res.body.data, 30_000);
  }

  async function readiness() {
    const res = await t.anonymous.get('/api/v1/health/ready');
    return { status: res.status, body: res.body };
  }

  async function expectLive(): Promise<void> {
    const res = await t.anonymous.get('/api/v1/health');
    expect(res.status).to.equal(200);
    expect(res.text).to.equal('up');
  }

  describe('from upload URL to answer', () => {
    /** Upload URL signed for S3_PUBLIC_URL, PUT, ingest, status, answer with sources: for a PDF about the DMCA. */
    async function copyrightDocumentEndToEnd(pdf: Uint8Array, pageCount: number): Promise<void> {
      const sessionId = await alice.createSession('copyright');
      const res = await alice.post('/api/v1/ingest/upload/url', { filename: 'dmca.pdf', contentType: PDF, contentSize: pdf.length });
      expect(res.status).to.equal(200);
      const { signedUrl, key } = res.body.uploadData;
      expect(key).to.match(/^alice\/[0-9a-f-]{36}-dmca\.pdf$/);
      // Points at the S3 server by the public name (S3_PUBLIC_URL = localhost, S3_ENDPOINT = 127.0.0.1) …
      const url = new URL(signedUrl);
      expect(url.origin).to.equal(stack.s3PublicUrl);
      expect(url.pathname).to.equal(`/${stack.bucket}/${key}`);
      expect(url.searchParams.get('X-Amz-Expires')).to.equal('3600');
      // … and is signed for that host: the signature checks out for it and not for the internal endpoint's.
      expect(presignedUrlSignatureValid(signedUrl, stack.s3.secretKey)).to.equal(true);
      const internal = new URL(signedUrl);
      internal.host = new URL(stack.s3.url).host;
      expect(presignedUrlSignatureValid(internal.toString(), stack.s3.secretKey)).to.equal(false);

      const put = await alice.putToSignedUrl(signedUrl, pdf, PDF);
      expect(put.status).to.equal(200);
      expect(await stack.storedObjectKeys()).to.include(key);

      const started = await alice.post('/api/v1/ingest/process', { key, filename: 'dmca.pdf', session_id: sessionId, tags: { institution: 'copyright-office' } });
      expect(started.status).to.equal(201);
      const jobId = started.body.data as string;
      const seen = new Set<string>();
      let job: any;
      for (const deadline = Date.now() + 30_000; ; ) {
        const status = await alice.get(`/api/v1/ingest/${jobId}`);
        expect(status.status).to.equal(200);
        job = status.body.data;
        seen.add(job.status);
        if (job.status === 'completed' || job.status === 'failed') break;
        expect(Date.now(), 'ingestion took too long').to.be.below(deadline);
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(job, JSON.stringify(job)).to.include({ id: jobId, status: 'completed', filename: 'dmca.pdf', session_id: sessionId, pages: pageCount, progress: 1 });
      expect(job.tags).to.deep.equal({ institution: 'copyright-office' });
      expect([...seen].every((s) => ['queued', 'processing', 'completed'].includes(s))).to.equal(true);
      expect(await stack.vectorRecordCount({ jobId })).to.equal(job.chunks);

      const answer = await alice.ask(sessionId, 'When was the Digital Millennium Copyright Act signed into law by President Clinton?', 'copyright-office');
      expect(answer.status).to.equal(200);
      expect(answer.body.success).to.equal(true);
      expect(answer.body.data).to.match(/October 28, 1998/);
      expect(answer.body.sources.length).to.be.greaterThan(0);
      expect(answer.body.sources[0]).to.include({ filename: 'dmca.pdf', page: 1, ingestId: jobId });
      expect(answer.body.sources[0].excerpt).to.match(/signed into law/);
      for (const source of answer.body.sources) {
        expect(source).to.include.all.keys(['filename', 'page', 'excerpt', 'score', 'ingestId', 'cited']);
        const optional = [...(source.marker === undefined ? [] : ['marker']), ...(source.quote === undefined ? [] : ['quote'])];
        expect(Object.keys(source).filter((key) => !['filename', 'page', 'excerpt', 'score', 'ingestId', 'cited'].includes(key))).to.deep.equal(optional);
        expect(source.page).to.be.within(1, pageCount);
      }
    }

    it('a generated PDF about the DMCA: URL signed for S3_PUBLIC_URL, PUT, ingest, status, answer with sources', async () => {
      await copyrightDocumentEndToEnd(COPYRIGHT, 6);
    });

    describeWithCorpus('the real document', () => {
      it('dmca-summary-1998.pdf: URL signed for S3_PUBLIC_URL, PUT, ingest, status, answer with sources', async () => {
        await copyrightDocumentEndToEnd(fs.readFileSync(corpusPath('pdfs/dmca-summary-1998.pdf')), 18);
      });
    });

    it('a generated PDF: the answer quotes page 2 and cites it', async () => {
      const sessionId = await alice.createSession('bank');
      const key = await upload(alice, 'acme-fees.pdf', ACME.bytes);
      const job = await ingest(alice, sessionId, key, 'acme-fees.pdf');
      expect(job).to.include({ status: 'completed', pages: 2 });
      const res = await alice.ask(sessionId, 'How much does an international wire transfer cost at Acme Bank?');
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include('45 dollars').and.match(/\[\d+\]$/);
      expect(res.body.sources[0]).to.include({ filename: 'acme-fees.pdf', page: 2, ingestId: job.id });
      expect(res.body.sources[0].excerpt).to.include('International wire transfers');
    });
  });

  describe('hybrid retrieval', () => {
    it('embeds chunks as documents and the question as a query through Ollama; Chroma holds the session’s chunks', async () => {
      const sessionId = await alice.createSession('hybrid');
      const before = stack.ollama.embeddedInputs().length;
      const key = await upload(alice, 'globex-fees.pdf', GLOBEX.bytes);
      const job = await ingest(alice, sessionId, key, 'globex-fees.pdf');
      expect(job.status).to.equal('completed');
      const documents = stack.ollama.embeddedInputs().slice(before);
      expect(documents).to.have.length(job.chunks);
      expect(documents.every((d) => d.startsWith('search_document: '))).to.equal(true);
      expect(documents.join(' ')).to.include('monthly maintenance fee of 3 dollars');
      expect(stack.ollama.embedRequests().every((r) => r.model === 'nomic-embed-text')).to.equal(true);
      expect(await stack.vectorRecordCount({ sessionId })).to.equal(job.chunks);
      expect(rows('SELECT id FROM chunks WHERE session_id = ?', sessionId)).to.have.length(job.chunks);

      const chatsBefore = stack.ollama.chatRequests().length;
      const question = 'What is the monthly maintenance fee at Globex?';
      const res = await alice.ask(sessionId, question);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include('3 dollars');
      expect(stack.ollama.embeddedInputs().at(-1)).to.equal(`search_query: ${question}`);
      const chat = stack.ollama.chatRequests().slice(chatsBefore);
      expect(chat).to.have.length(1);
      expect(chat[0].model).to.equal('llama3.2');
      expect(chat[0].messages.at(-1)!.content).to.include('<document ref="1" file="globex-fees.pdf" page="1">');
    });

    it('answers from Chroma alone when the BM25 index holds nothing for the session', async () => {
      const sessionId = await alice.createSession('dense only');
      const key = await upload(alice, 'hooli-travel.pdf', HOOLI.bytes);
      const job = await ingest(alice, sessionId, key, 'hooli-travel.pdf');
      await t.service.container.get<VectorIndex>(TOKENS.LexicalIndex).deleteBySession(sessionId);
      expect(rows('SELECT id FROM chunks WHERE session_id = ?', sessionId)).to.deep.equal([]);
      const res = await alice.ask(sessionId, 'Which flights may Hooli employees book for short trips?');
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include('economy class');
      expect(res.body.sources[0]).to.include({ filename: 'hooli-travel.pdf', page: 1, ingestId: job.id });
    });
  });

  describe('deleting a session', () => {
    it('leaves no object in the bucket and no record in Chroma for it; another session keeps its own', async () => {
      const doomed = await alice.createSession('doomed');
      const survivor = await alice.createSession('survivor');
      const doomedKeys = [await upload(alice, 'acme-fees.pdf', ACME.bytes), await upload(alice, 'globex-fees.pdf', GLOBEX.bytes)];
      for (const [i, key] of doomedKeys.entries()) expect((await ingest(alice, doomed, key, `doc-${i}.pdf`)).status).to.equal('completed');
      const survivorKey = await upload(alice, 'globex-fees.pdf', GLOBEX.bytes);
      const survivorJob = await ingest(alice, survivor, survivorKey, 'globex-fees.pdf');
      await alice.ask(doomed, 'What is the monthly maintenance fee?');
      expect(await stack.vectorRecordCount({ sessionId: doomed })).to.be.greaterThan(0);
      expect(await stack.storedObjectKeys()).to.include.members([...doomedKeys, survivorKey]);

      expect((await alice.delete(`/api/v1/session/${doomed}`)).status).to.equal(204);
      const keys = await stack.storedObjectKeys();
      for (const key of doomedKeys) expect(keys).to.not.include(key);
      expect(keys).to.include(survivorKey);
      expect(await stack.vectorRecordCount({ sessionId: doomed })).to.equal(0);
      expect(rows('SELECT id FROM chunks WHERE session_id = ?', doomed)).to.deep.equal([]);
      expect(rows('SELECT id FROM ingest_jobs WHERE session_id = ?', doomed)).to.deep.equal([]);
      expect(await stack.vectorRecordCount({ sessionId: survivor })).to.equal(survivorJob.chunks);
      const res = await alice.ask(survivor, 'What is the monthly maintenance fee?');
      expect(res.body.data).to.include('3 dollars');
      expect(res.body.sources[0]).to.include({ ingestId: survivorJob.id });
    });
  });

  describe('dependencies down and back', () => {
    const QUESTION = 'How much does an international wire transfer cost at Acme Bank?';
    /** A session with a document and an answer, from before any outage. */
    const earlier = {} as {
      sessionId: string;
      jobId: string;
      key: string;
      chunks: number;
      answer: string;
      firstSource: Record<string, unknown>;
      history: unknown[];
    };

    before(async () => {
      earlier.sessionId = await alice.createSession('before the outages');
      earlier.key = await upload(alice, 'acme-fees.pdf', ACME.bytes);
      const job = await ingest(alice, earlier.sessionId, earlier.key, 'acme-fees.pdf', { institution: 'acme' });
      expect(job.status).to.equal('completed');
      earlier.jobId = job.id;
      earlier.chunks = job.chunks;
      const res = await alice.ask(earlier.sessionId, QUESTION);
      expect(res.status).to.equal(200);
      earlier.answer = res.body.data;
      earlier.firstSource = res.body.sources[0];
      expect(earlier.firstSource).to.include({ filename: 'acme-fees.pdf', page: 2, ingestId: earlier.jobId });
      earlier.history = (await alice.get(`/api/v1/chat/history/${earlier.sessionId}`)).body.data;
      expect(earlier.history).to.have.length(2);
    });

    after(async () => {
      // Whatever failed above, leave every dependency running for the next tests.
      for (const name of stack.dependencies) await stack.restartDependency(name);
    });

    it('readiness is 200 and lists every dependency while all answer', async () => {
      const { status, body } = await readiness();
      expect(status).to.equal(200);
      expect(body.status).to.equal('ready');
      expect(body.dependencies.map((d: { name: string }) => d.name)).to.have.members([
        'database', ...READINESS_NAMES.s3, ...READINESS_NAMES.chroma, ...READINESS_NAMES.ollama,
      ]);
      await expectLive();
    });

    /** Readiness is 503 and names exactly the dependency that is down; liveness stays `up`. */
    async function expectReadinessNames(name: DependencyName): Promise<void> {
      const { status, body } = await readiness();
      expect(status).to.equal(503);
      expect(body.status).to.equal('unavailable');
      expect(body.unavailable).to.have.members(READINESS_NAMES[name]);
      for (const dependency of body.dependencies) {
        expect(dependency.ok, dependency.name).to.equal(!READINESS_NAMES[name].includes(dependency.name));
        // The public body names what is down; why (hosts, addresses) goes to the log only.
        expect(dependency).to.have.all.keys('name', 'ok');
        if (!dependency.ok) {
          const logged = t.logger.lines.filter((l) => l.message === 'readiness probe failed' && l.fields?.dependency === dependency.name);
          expect(logged.at(-1)?.fields?.error, `${dependency.name} logged`).to.be.a('string').and.not.equal('');
        }
      }
      await expectLive();
    }

    /** Upload URLs are presigned offline (the signing region is configured): issued whatever is down. */
    async function expectUploadUrlIssued(): Promise<{ signedUrl: string; key: string }> {
      const res = await alice.post('/api/v1/ingest/upload/url', { filename: 'later.pdf', contentType: PDF, contentSize: 1000 });
      expect(res.status, res.text).to.equal(200);
      expect(presignedUrlSignatureValid(res.body.uploadData.signedUrl, stack.s3.secretKey)).to.equal(true);
      return res.body.uploadData;
    }

    /** Sessions and history are the service's own records: readable whatever is down. */
    async function expectRecordsReadable(): Promise<void> {
      const sessions = await alice.get('/api/v1/session/');
      expect(sessions.status).to.equal(200);
      expect(sessions.body.map((s: { id: string }) => s.id)).to.include(earlier.sessionId);
      const history = await alice.get(`/api/v1/chat/history/${earlier.sessionId}`);
      expect(history.status).to.equal(200);
      expect(history.body.data.slice(0, earlier.history.length)).to.deep.equal(earlier.history);
    }

    /** Chat fails with the chat route's 503 body and records nothing. */
    async function expectChatUnavailable(): Promise<void> {
      const before = (await alice.get(`/api/v1/chat/history/${earlier.sessionId}`)).body.data.length;
      const res = await alice.ask(earlier.sessionId, QUESTION);
      expect(res.status, res.text).to.equal(503);
      expect(res.body).to.deep.equal(SERVICE_UNAVAILABLE_CHAT);
      expect(res.headers.get('retry-after')).to.equal(String(UPSTREAM_RETRY_AFTER_SECONDS));
      expect(res.headers.get('x-request-id')).to.be.a('string');
      expect((await alice.get(`/api/v1/chat/history/${earlier.sessionId}`)).body.data.length).to.equal(before);
    }

    /** The job fails, saying which service was missing; no index holds a chunk of it. */
    async function expectJobFailed(job: any, service: RegExp): Promise<void> {
      expect(job.status, JSON.stringify(job)).to.equal('failed');
      expect(job.error).to.match(/unavailable/i).and.match(service);
      expect(job).to.not.have.property('chunks');
      expect(rows('SELECT id FROM chunks WHERE job_id = ?', job.id)).to.deep.equal([]);
    }

    /** After the outage: ready again, and everything from before is still there and answers the same. */
    async function expectNothingLost(): Promise<void> {
      const { status, body } = await readiness();
      expect(status, JSON.stringify(body)).to.equal(200);
      await expectLive();
      await expectRecordsReadable();
      expect(await stack.storedObjectKeys()).to.include(earlier.key);
      expect(await stack.vectorRecordCount({ jobId: earlier.jobId })).to.equal(earlier.chunks);
      const res = await alice.ask(earlier.sessionId, QUESTION);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.equal(earlier.answer);
      expect(res.body.sources[0]).to.deep.equal(earlier.firstSource);
      const job = await alice.get(`/api/v1/ingest/${earlier.jobId}`);
      expect(job.body.data).to.include({ status: 'completed', chunks: earlier.chunks });
    }

    /** A session holding one ingested document, to be deleted during an outage. */
    async function sessionToDelete(label: string): Promise<{ sessionId: string; key: string }> {
      const sessionId = await alice.createSession(label);
      const key = await upload(alice, 'hooli-travel.pdf', HOOLI.bytes);
      expect((await ingest(alice, sessionId, key, 'hooli-travel.pdf')).status).to.equal('completed');
      return { sessionId, key };
    }

    /** Deleting needs the store and the index: 503 naming the one down, and the session stays so it can be retried. */
    async function expectDeleteRefused(doomed: { sessionId: string }, unavailable: string): Promise<void> {
      const res = await alice.delete(`/api/v1/session/${doomed.sessionId}`);
      expect(res.status, res.text).to.equal(503);
      expect(res.body).to.deep.equal({ error: 'Service Unavailable', code: 'UPSTREAM_UNAVAILABLE', unavailable });
      expect((await alice.get('/api/v1/session/')).body.map((s: { id: string }) => s.id)).to.include(doomed.sessionId);
    }

    /** The deletion, tried again (or done) with every dependency up, leaves nothing of the session anywhere. */
    async function expectDeletedEverywhere(doomed: { sessionId: string; key: string }): Promise<void> {
      expect((await alice.delete(`/api/v1/session/${doomed.sessionId}`)).status).to.equal(204);
      expect((await alice.get('/api/v1/session/')).body.map((s: { id: string }) => s.id)).to.not.include(doomed.sessionId);
      expect(await stack.storedObjectKeys()).to.not.include(doomed.key);
      expect(await stack.vectorRecordCount({ sessionId: doomed.sessionId })).to.equal(0);
      expect(rows('SELECT id FROM chunks WHERE session_id = ?', doomed.sessionId)).to.deep.equal([]);
      expect(rows('SELECT id FROM ingest_jobs WHERE session_id = ?', doomed.sessionId)).to.deep.equal([]);
    }

    /** The upload the outage made fail, ingested again, completes in every index. */
    async function expectReingestCompletes(sessionId: string, key: string): Promise<void> {
      const job = await ingest(alice, sessionId, key, 'retry.pdf');
      expect(job.status, JSON.stringify(job)).to.equal('completed');
      expect(await stack.vectorRecordCount({ jobId: job.id })).to.equal(job.chunks);
      expect(rows('SELECT id FROM chunks WHERE job_id = ?', job.id)).to.have.length(job.chunks);
    }

    describe('S3 (object storage)', () => {
      let sessionId: string;
      let queuedKey: string;
      let pendingKey: string;
      let doomed: { sessionId: string; key: string };

      before(async () => {
        sessionId = await alice.createSession('object storage outage');
        doomed = await sessionToDelete('deleted during the object storage outage');
      });

      it('a job accepted just before storage went away fails naming it, without crashing anything', async () => {
        // Jobs A and A2 hold the single ingestion slot and alice's limit in their embedding step (the model is slow):
        // A, finishing (its pages read), lets A2 start beside it; with both finishing, job B waits behind them. B's
        // file is in the bucket when it is accepted, and storage goes away before B reads it.
        const keyA = await upload(alice, 'globex-fees.pdf', GLOBEX.bytes);
        const keyA2 = await upload(alice, 'initech-expenses.pdf', INITECH.bytes);
        queuedKey = await upload(alice, 'hooli-travel.pdf', HOOLI.bytes);
        pendingKey = await upload(alice, 'acme-fees.pdf', ACME.bytes);
        stack.ollama.delay('/api/embed', 4_000);
        let a: any;
        let a2: any;
        let queuedJob = '';
        const untilEmbedding = async (jobId: string, name: string) => {
          for (const deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 20))) {
            const job = (await alice.get(`/api/v1/ingest/${jobId}`)).body.data;
            if (job.stage === 'embedding') break;
            expect(job.status).to.not.be.oneOf(['completed', 'failed']);
            expect(Date.now(), `job ${name} never reached its embedding step`).to.be.below(deadline);
          }
        };
        try {
          const jobA = (await alice.post('/api/v1/ingest/process', { key: keyA, filename: 'a.pdf', session_id: sessionId, tags: {} })).body.data;
          await untilEmbedding(jobA, 'A');
          const jobA2 = (await alice.post('/api/v1/ingest/process', { key: keyA2, filename: 'a2.pdf', session_id: sessionId, tags: {} })).body.data;
          await untilEmbedding(jobA2, 'A2');
          const accepted = await alice.post('/api/v1/ingest/process', { key: queuedKey, filename: 'b.pdf', session_id: sessionId, tags: {} });
          expect(accepted.status).to.equal(201);
          queuedJob = accepted.body.data;
          expect((await alice.get(`/api/v1/ingest/${queuedJob}`)).body.data.status).to.equal('queued');
          await stack.stopDependency('s3');
          a = await alice.waitForJob(jobA, 20_000);
          a2 = await alice.waitForJob(jobA2, 20_000);
        } finally {
          stack.ollama.clearFaults();
        }
        expect(a2.status, 'A2 had read its file before the outage').to.equal('completed');
        expect(a.status, 'A had read its file before the outage').to.equal('completed');
        const b = await alice.waitForJob(queuedJob, 20_000);
        await expectJobFailed(b, /object storage/i);
      });

      describe('while it is down', () => {
        before(() => stack.stopDependency('s3'));

        it('readiness is 503 naming it; /health stays up', async () => {
          await expectReadinessNames('s3');
        });

        it('upload URL: still issued (presigning needs no call to the S3 server); the PUT to it cannot connect', async () => {
          const { signedUrl } = await expectUploadUrlIssued();
          let error: unknown;
          await alice.putToSignedUrl(signedUrl, 'x', PDF).catch((e) => (error = e));
          expect(error, 'the PUT should not reach a server').to.be.instanceOf(Error);
        });

        it('ingest: 503 Service Unavailable naming object storage, and no job is recorded', async () => {
          const res = await alice.post('/api/v1/ingest/process', { key: pendingKey, filename: 'c.pdf', session_id: sessionId, tags: {} });
          expect(res.status, res.text).to.equal(503);
          expect(res.body).to.deep.equal({ error: 'Service Unavailable', code: 'UPSTREAM_UNAVAILABLE', unavailable: 'object storage' });
          expect(rows('SELECT id FROM ingest_jobs WHERE blob_key = ?', pendingKey)).to.deep.equal([]);
        });

        it('chat still answers from what is indexed (it needs no stored file); sessions and history read fine', async () => {
          const res = await alice.ask(earlier.sessionId, QUESTION);
          expect(res.status, res.text).to.equal(200);
          expect(res.body.data).to.equal(earlier.answer);
          expect(res.body.sources[0]).to.deep.equal(earlier.firstSource);
          await expectRecordsReadable();
        });

        it('deleting a session: 503 naming object storage, and the session stays to be deleted again', async () => {
          await expectDeleteRefused(doomed, 'object storage');
        });
      });

      describe('once it is back (same port, same data)', () => {
        before(() => stack.restartDependency('s3'));

        it('nothing stored is lost: readiness 200, sessions, history, earlier answers', async () => {
          await expectNothingLost();
        });

        it('the uploads the outage stopped ingest now', async () => {
          await expectReingestCompletes(sessionId, queuedKey);
          await expectReingestCompletes(sessionId, pendingKey);
        });

        it('deleting the session again leaves nothing of it in the bucket, Chroma or SQLite', async () => {
          await expectDeletedEverywhere(doomed);
        });
      });
    });

    describe('Chroma (vector index)', () => {
      let sessionId: string;
      let key: string;
      let doomed: { sessionId: string; key: string };

      before(async () => {
        sessionId = await alice.createSession('chroma outage');
        key = await upload(alice, 'globex-fees.pdf', GLOBEX.bytes);
        doomed = await sessionToDelete('deleted during the Chroma outage');
      });

      describe('while it is down', () => {
        before(() => stack.stopDependency('chroma'));

        it('readiness is 200 "degraded" naming it (questions are still answered); /health stays up', async () => {
          const { status, body } = await readiness();
          expect(status, JSON.stringify(body)).to.equal(200);
          expect(body).to.deep.include({ status: 'degraded', degraded: READINESS_NAMES.chroma });
          await expectLive();
        });

        it('chat: answered from the BM25 index, with a note that semantic search is unavailable, and recorded', async () => {
          const res = await alice.ask(earlier.sessionId, QUESTION);
          expect(res.status, res.text).to.equal(200);
          expect(res.body.data).to.include('45 dollars').and.include(SEMANTIC_SEARCH_UNAVAILABLE_NOTE);
          expect(res.body.sources[0]).to.include({ filename: 'acme-fees.pdf', page: 2, ingestId: earlier.jobId });
          const history = await alice.get(`/api/v1/chat/history/${earlier.sessionId}`);
          expect(history.body.data.at(-1).content).to.equal(res.body.data);
        });

        it('upload URL: still issued (it needs no index)', async () => {
          await expectUploadUrlIssued();
        });

        it('ingest: accepted, then the job fails naming Chroma and leaves no chunk in the BM25 index', async () => {
          const job = await ingest(alice, sessionId, key, 'globex-fees.pdf');
          await expectJobFailed(job, /Chroma/);
          await expectRecordsReadable();
        });

        it('deleting a session: 503 naming the vector index, and the session stays to be deleted again', async () => {
          await expectDeleteRefused(doomed, 'vector index');
          expect(await stack.storedObjectKeys()).to.include(doomed.key);
        });
      });

      describe('once it is back (same port, same data)', () => {
        before(() => stack.restartDependency('chroma'));

        it('nothing stored is lost: readiness 200, sessions, history, earlier answers', async () => {
          await expectNothingLost();
          // Nothing of the failed job reached Chroma either.
          const failed = rows('SELECT id FROM ingest_jobs WHERE session_id = ? AND status = ?', sessionId, 'failed');
          expect(failed).to.have.length(1);
          expect(await stack.vectorRecordCount({ jobId: failed[0].id })).to.equal(0);
        });

        it('the upload the outage stopped ingests now', async () => {
          await expectReingestCompletes(sessionId, key);
        });

        it('deleting the session again leaves nothing of it in the bucket, Chroma or SQLite', async () => {
          await expectDeletedEverywhere(doomed);
        });
      });
    });

    describe('Ollama (embedding and chat model)', () => {
      let sessionId: string;
      let key: string;
      let doomed: { sessionId: string; key: string };

      before(async () => {
        sessionId = await alice.createSession('ollama outage');
        key = await upload(alice, 'globex-fees.pdf', GLOBEX.bytes);
        doomed = await sessionToDelete('deleted during the Ollama outage');
      });

      describe('while it is down', () => {
        before(() => stack.stopDependency('ollama'));

        it('readiness is 503 naming both models; /health stays up', async () => {
          await expectReadinessNames('ollama');
        });

        it('chat: 503 { success: false, error: "Service Unavailable" }, nothing recorded', async () => {
          await expectChatUnavailable();
        });

        it('upload URL: still issued (it needs no model)', async () => {
          await expectUploadUrlIssued();
        });

        it('ingest: accepted, then the job fails naming Ollama with no chunk indexed anywhere', async () => {
          const job = await ingest(alice, sessionId, key, 'globex-fees.pdf');
          await expectJobFailed(job, /Ollama/);
          await expectRecordsReadable();
        });

        it('deleting a session works (it needs no model) and leaves nothing of it anywhere', async () => {
          await expectDeletedEverywhere(doomed);
        });
      });

      describe('once it is back (same port)', () => {
        before(() => stack.restartDependency('ollama'));

        it('nothing stored is lost: readiness 200, sessions, history, earlier answers', async () => {
          await expectNothingLost();
          const failed = rows('SELECT id FROM ingest_jobs WHERE session_id = ? AND status = ?', sessionId, 'failed');
          expect(failed).to.have.length(1);
          expect(await stack.vectorRecordCount({ jobId: failed[0].id })).to.equal(0);
        });

        it('the upload the outage stopped ingests now', async () => {
          await expectReingestCompletes(sessionId, key);
        });
      });
    });

    describe('Chroma back without its data (its volume lost)', () => {
      before(async () => {
        await stack.stopDependency('chroma');
        await stack.restartDependency('chroma', { withoutData: true });
      });

      it('is ready; chat answers from the BM25 index instead of erring; new documents reach Chroma again', async () => {
        expect((await readiness()).status).to.equal(200);
        // The service's handle on the collection is stale: it must open (create) the collection again.
        const res = await alice.ask(earlier.sessionId, QUESTION);
        expect(res.status, res.text).to.equal(200);
        expect(res.body.data).to.include('45 dollars');
        expect(res.body.sources[0]).to.include({ filename: 'acme-fees.pdf', page: 2, ingestId: earlier.jobId });
        expect(await stack.vectorRecordCount({ sessionId: earlier.sessionId })).to.equal(0);
        const sessionId = await alice.createSession('after the Chroma reset');
        await expectReingestCompletes(sessionId, await upload(alice, 'globex-fees.pdf', GLOBEX.bytes));
      });
    });

    // Mocha runs a suite's own tests before its nested suites: this one is in a suite of its own to run last.
    describe('after all the outages', () => {
      it('no request ended in a 500 and no ingest job crashed', async () => {
        const failures = t.logger.lines.filter(
          (l) => (l.message === 'request failed' && l.fields?.status === 500) || l.message === 'ingest job crashed',
        );
        expect(failures, JSON.stringify(failures, null, 2)).to.deep.equal([]);
        // Another user never saw any of it.
        expect((await bob.get('/api/v1/session/')).body).to.deep.equal([]);
      });
    });
  });
});
