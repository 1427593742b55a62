import { expect } from 'chai';
import { IngestAlreadyActiveError } from '../../core/domain/errors.js';
import type { ChatMessage, IngestJob, Session } from '../../core/domain/model.js';
import type { ChatRepo } from '../../core/ports/chat-repo.js';
import type { IngestJobRepo } from '../../core/ports/ingest-job-repo.js';
import type { SessionEraser } from '../../core/ports/session-eraser.js';
import type { SessionRepo } from '../../core/ports/session-repo.js';
import type { UploadRepo } from '../../core/ports/upload-repo.js';

export interface RepoSubject {
  sessions: SessionRepo;
  chats: ChatRepo;
  jobs: IngestJobRepo;
  uploads: UploadRepo;
  eraser: SessionEraser;
  /** Makes the eraser fail part-way (after it has started deleting, where the store allows); returns the undo. */
  breakEraser(): (() => unknown) | Promise<() => unknown>;
  cleanup(): Promise<void>;
}

const session = (id: string, userId: string, createdAt: string, label = `label ${id}`): Session => ({ id, label, userId, createdAt });

const message = (n: number, sessionId: string, role: 'user' | 'assistant' = n % 2 === 0 ? 'user' : 'assistant'): ChatMessage => ({
  id: `${sessionId}-m${n}`,
  sessionId,
  role,
  content: `message ${n} — ünïcødé ✓`,
  // Same timestamp on purpose: order must come from insertion, not from the clock.
  createdAt: '2026-01-01T00:00:00.000Z',
});

const job = (id: string, sessionId: string, overrides: Partial<IngestJob> = {}): IngestJob => ({
  id,
  userId: 'u1',
  sessionId,
  key: `u1/${id}-file.pdf`,
  filename: 'file.pdf',
  contentType: 'application/pdf',
  tags: { institution: 'acme', year: '2024' },
  status: 'queued',
  progress: 0,
  createdAt: `2026-01-01T00:00:0${id.slice(-1)}.000Z`,
  updatedAt: `2026-01-01T00:00:0${id.slice(-1)}.000Z`,
  ...overrides,
});

/** Behaviour every SessionRepo, ChatRepo and IngestJobRepo implementation must have. */
/** A job as a version before checkpoints stored it (the same SQL for SQLite and PostgreSQL), for migration tests. */
export const JOB_BEFORE_CHECKPOINTS = `INSERT INTO ingest_jobs (id, user_id, session_id, blob_key, filename, content_type,
  tags_json, status, attempts, created_at, updated_at) VALUES ('old', 'u1', 's1', 'u1/a.pdf', 'f.pdf', 'application/pdf',
  '{}', 'processing', 1, '2026-01-01T00:00:01.000Z', '2026-01-01T00:00:01.000Z')`;

/** That job, once migrated to unit labels, reads as it was stored (no units) and then keeps them. */
export async function expectJobBeforeUnitsTakesThem(jobs: IngestJobRepo): Promise<void> {
  expect(await jobs.findById('old')).to.include({ status: 'processing' }).and.not.have.property('units');
  expect(await jobs.update('old', { units: ['Sheet Q3'] })).to.deep.include({ units: ['Sheet Q3'] });
  expect(await jobs.findById('old')).to.deep.include({ units: ['Sheet Q3'] });
}

/** That job, once migrated, reads as it was stored and then keeps a checkpoint. */
export async function expectJobBeforeCheckpointsTakesOne(jobs: IngestJobRepo): Promise<void> {
  expect(await jobs.findById('old')).to.include({ status: 'processing', attempts: 1 }).and.not.have.any.keys('checkpoint', 'readingPage');
  const checkpoint = { pages: 3, chunks: 9, ocrSkippedPages: 0, section: {}, run: 1 };
  expect(await jobs.update('old', { checkpoint, readingPage: 4 })).to.deep.include({ checkpoint, readingPage: 4 });
}

export function repoContract(name: string, makeSubject: () => Promise<RepoSubject>): void {
  describe(`repository contract: ${name}`, () => {
    let s: RepoSubject;
    beforeEach(async () => {
      s = await makeSubject();
    });
    afterEach(async () => s.cleanup());

    describe('SessionRepo', () => {
      it('creates, finds, and lists only the owner’s sessions, oldest first', async () => {
        await s.sessions.create(session('b', 'u1', '2026-01-02T00:00:00.000Z'));
        await s.sessions.create(session('a', 'u1', '2026-01-01T00:00:00.000Z'));
        await s.sessions.create(session('c', 'u2', '2026-01-01T00:00:00.000Z'));
        expect(await s.sessions.findById('a')).to.deep.equal(session('a', 'u1', '2026-01-01T00:00:00.000Z'));
        expect((await s.sessions.listByUser('u1')).map((x) => x.id)).to.deep.equal(['a', 'b']);
        expect((await s.sessions.listByUser('u2')).map((x) => x.id)).to.deep.equal(['c']);
        expect(await s.sessions.listByUser('nobody')).to.deep.equal([]);
      });

      it('returns null for a missing session', async () => {
        expect(await s.sessions.findById('missing')).to.equal(null);
      });

      it('renames and reports a missing session on rename', async () => {
        await s.sessions.create(session('a', 'u1', '2026-01-01T00:00:00.000Z'));
        const renamed = await s.sessions.rename('a', 'Новое имя 📄');
        expect(renamed).to.include({ id: 'a', label: 'Новое имя 📄', userId: 'u1' });
        expect((await s.sessions.findById('a'))?.label).to.equal('Новое имя 📄');
        expect(await s.sessions.rename('missing', 'x')).to.equal(null);
      });

      it('deletes once', async () => {
        await s.sessions.create(session('a', 'u1', '2026-01-01T00:00:00.000Z'));
        expect(await s.sessions.delete('a')).to.equal(true);
        expect(await s.sessions.delete('a')).to.equal(false);
        expect(await s.sessions.findById('a')).to.equal(null);
      });
    });

    describe('ChatRepo', () => {
      it('pages messages oldest first by insertion order, even with equal timestamps', async () => {
        for (let i = 0; i < 45; i += 2) await s.chats.appendExchange(message(i, 's1'), message(i + 1, 's1'));
        const first = await s.chats.page('s1', 0, 20);
        expect(first.map((m) => m.id)).to.deep.equal(Array.from({ length: 20 }, (_, i) => `s1-m${i}`));
        const third = await s.chats.page('s1', 40, 20);
        expect(third.map((m) => m.id)).to.deep.equal(['s1-m40', 's1-m41', 's1-m42', 's1-m43', 's1-m44', 's1-m45']);
        expect(await s.chats.count('s1')).to.equal(46);
        expect(await s.chats.page('s1', 100, 20)).to.deep.equal([]);
        // Another page size, between calls with the first: each call gets its own size and offset.
        expect((await s.chats.page('s1', 3, 4)).map((m) => m.id)).to.deep.equal(['s1-m3', 's1-m4', 's1-m5', 's1-m6']);
        expect(await s.chats.page('s1', 0, 20)).to.deep.equal(first);
        expect(first[0]).to.include({ role: 'user', content: 'message 0 — ünïcødé ✓', sessionId: 's1' });
      });

      it('ownedPage gives the same page as page and the session\'s count as count does, only to its owner (empty and past the end too)', async () => {
        await s.sessions.create(session('s1', 'u1', '2026-01-01T00:00:00.000Z'));
        await s.sessions.create(session('s2', 'u1', '2026-01-01T00:00:00.000Z'));
        await s.sessions.create(session('s3', 'u1', '2026-01-01T00:00:00.000Z'));
        for (let i = 0; i < 25; i += 2) await s.chats.appendExchange(message(i, 's1'), message(i + 1, 's1'));
        await s.chats.appendExchange(message(0, 's2'), message(1, 's2'));
        for (const [offset, limit] of [[0, 20], [20, 20], [3, 4], [100, 20]]) {
          expect(await s.chats.ownedPage('s1', 'u1', offset, limit), `${offset}, ${limit}`)
            .to.deep.equal({ messages: await s.chats.page('s1', offset, limit), total: 26 });
        }
        expect((await s.chats.ownedPage('s1', 'u1', 20, 20))!.messages.map((m) => m.id)).to.deep.equal(['s1-m20', 's1-m21', 's1-m22', 's1-m23', 's1-m24', 's1-m25']);
        expect(await s.chats.ownedPage('s2', 'u1', 0, 20)).to.deep.equal({ messages: await s.chats.page('s2', 0, 20), total: 2 });
        expect(await s.chats.ownedPage('s3', 'u1', 0, 20)).to.deep.equal({ messages: [], total: 0 });
        // Another user's session and a missing one read alike: nothing.
        expect(await s.chats.ownedPage('s1', 'u2', 0, 20)).to.equal(null);
        expect(await s.chats.ownedPage('none', 'u1', 0, 20)).to.equal(null);
        // Deleted (as the eraser deletes it): nothing at once, though its messages were there a moment ago.
        await s.eraser.erase('s2', { remove: [], release: [] });
        expect(await s.chats.ownedPage('s2', 'u1', 0, 20)).to.equal(null);
      });

      it('ownedPage\'s total follows appends and deletes, concurrent ones included, per session', async () => {
        await s.sessions.create(session('s1', 'u1', '2026-01-01T00:00:00.000Z'));
        await s.sessions.create(session('s2', 'u1', '2026-01-01T00:00:00.000Z'));
        await Promise.all(Array.from({ length: 10 }, (_, i) =>
          s.chats.appendExchange(message(2 * i, i % 2 ? 's1' : 's2'), message(2 * i + 1, i % 2 ? 's1' : 's2'))));
        expect((await s.chats.ownedPage('s1', 'u1', 0, 20))!.total).to.equal(10);
        expect((await s.chats.ownedPage('s2', 'u1', 0, 20))!.total).to.equal(10);
        expect(await s.chats.deleteBySession('s1')).to.equal(10);
        expect(await s.chats.ownedPage('s1', 'u1', 0, 20)).to.deep.equal({ messages: [], total: 0 });
        await s.chats.appendExchange(message(0, 's1'), message(1, 's1'));
        expect((await s.chats.ownedPage('s1', 'u1', 0, 20))!.total).to.equal(2);
        expect((await s.chats.ownedPage('s2', 'u1', 0, 20))!.total).to.equal(await s.chats.count('s2'));
      });

      it('ownedPage read again gives what page gives each time: after appends, after a clear and new turns', async () => {
        await s.sessions.create(session('s1', 'u1', '2026-01-01T00:00:00.000Z'));
        const sameAsPage = async (offset: number, limit: number) =>
          expect(await s.chats.ownedPage('s1', 'u1', offset, limit), `${offset}, ${limit}`)
            .to.deep.equal({ messages: await s.chats.page('s1', offset, limit), total: await s.chats.count('s1') });
        for (let i = 0; i < 6; i += 2) await s.chats.appendExchange(message(i, 's1'), message(i + 1, 's1'));
        for (const round of [1, 2]) for (const [offset, limit] of [[0, 4], [4, 4], [2, 3]]) await sameAsPage(offset, limit + round - 1);
        await s.chats.appendExchange(message(6, 's1'), { ...message(7, 's1'), sources: [{ filename: 'a.pdf', page: 1, excerpt: 'e', score: 1, ingestId: 'j', cited: true }] });
        await sameAsPage(4, 4);
        await sameAsPage(4, 4);
        await s.chats.deleteBySession('s1');
        await sameAsPage(0, 4);
        await s.chats.appendExchange({ ...message(0, 's1'), id: 'new-q', content: 'another question' }, { ...message(1, 's1'), id: 'new-a', content: 'another answer' });
        await sameAsPage(0, 4);
        expect((await s.chats.ownedPage('s1', 'u1', 0, 4))!.messages.map((m) => m.content)).to.deep.equal(['another question', 'another answer']);
        expect(await s.chats.ownedPage('s1', 'u2', 0, 4)).to.equal(null);
      });

      it('keeps sessions apart and returns the most recent messages in order', async () => {
        await s.chats.appendExchange(message(0, 's1'), message(1, 's1'));
        await s.chats.appendExchange(message(0, 's2'), message(1, 's2'));
        await s.chats.appendExchange(message(2, 's1'), message(3, 's1'));
        expect((await s.chats.recent('s1', 3)).map((m) => m.id)).to.deep.equal(['s1-m1', 's1-m2', 's1-m3']);
        expect((await s.chats.recent('s1', 1)).map((m) => m.id)).to.deep.equal(['s1-m3']);
        expect((await s.chats.recent('s2', 3)).map((m) => m.id)).to.deep.equal(['s2-m0', 's2-m1']);
        expect((await s.chats.page('s2', 0, 20)).map((m) => m.id)).to.deep.equal(['s2-m0', 's2-m1']);
      });

      it('stores sources of an answer', async () => {
        const answer = { ...message(1, 's1'), sources: [{ filename: 'a.pdf', page: 2, excerpt: 'x', score: 0.5, ingestId: 'j1', cited: true }, { filename: 'b.pdf', page: 9, excerpt: 'y', score: 0.25, ingestId: 'j2', cited: false }] };
        await s.chats.appendExchange(message(0, 's1'), answer);
        const [, stored] = await s.chats.page('s1', 0, 20);
        expect(stored.sources).to.deep.equal(answer.sources);
      });

      it('deletes all messages of one session only', async () => {
        await s.chats.appendExchange(message(0, 's1'), message(1, 's1'));
        await s.chats.appendExchange(message(0, 's2'), message(1, 's2'));
        expect(await s.chats.count('s1')).to.equal(2);
        expect(await s.chats.deleteBySession('s1')).to.equal(2);
        expect(await s.chats.page('s1', 0, 20)).to.deep.equal([]);
        expect(await s.chats.count('s1')).to.equal(0);
        expect(await s.chats.count('s2')).to.equal(2);
        expect(await s.chats.page('s2', 0, 20)).to.have.length(2);
        expect(await s.chats.deleteBySession('s1')).to.equal(0);
      });
    });

    describe('IngestJobRepo', () => {
      it('creates and finds a job with its tags', async () => {
        await s.jobs.create(job('j1', 's1'));
        expect(await s.jobs.findById('j1')).to.deep.equal(job('j1', 's1'));
        expect(await s.jobs.findById('missing')).to.equal(null);
      });

      it('updates fields, clears fields patched with undefined, and reports a missing job', async () => {
        await s.jobs.create(job('j1', 's1'));
        let updated = await s.jobs.update('j1', { status: 'processing', stage: 'extracting', progress: 0.5, updatedAt: '2026-01-02T00:00:00.000Z' });
        expect(updated).to.include({ status: 'processing', stage: 'extracting', progress: 0.5, updatedAt: '2026-01-02T00:00:00.000Z' });
        updated = await s.jobs.update('j1', { status: 'completed', stage: undefined, progress: 1, pages: 3, chunks: 7, sha256: 'abc' });
        expect(updated).to.include({ status: 'completed', progress: 1, pages: 3, chunks: 7, sha256: 'abc' });
        expect(updated).to.not.have.property('stage');
        expect(await s.jobs.update('missing', { status: 'failed' })).to.equal(null);
      });

      it('keeps the attempts count and the pages skipped by the OCR limit', async () => {
        await s.jobs.create(job('j1', 's1'));
        expect(await s.jobs.findById('j1')).to.not.have.any.keys('attempts', 'ocrSkippedPages');
        await s.jobs.update('j1', { status: 'processing', attempts: 2 });
        await s.jobs.update('j1', { status: 'completed', ocrSkippedPages: 40 });
        expect(await s.jobs.findById('j1')).to.include({ attempts: 2, ocrSkippedPages: 40 });
        await s.jobs.create(job('j2', 's1', { key: 'u1/other.pdf', status: 'processing', attempts: 3 }));
        expect(await s.jobs.findById('j2')).to.include({ attempts: 3 });
      });

      it('keeps a job’s checkpoint and the pages its runs were on, and clears them', async () => {
        await s.jobs.create(job('j1', 's1'));
        expect(await s.jobs.findById('j1')).to.not.have.any.keys('checkpoint', 'readingPage', 'diedOnPage');
        const checkpoint = { pages: 251, chunks: 1004, ocrSkippedPages: 2, section: { title: 'Annual report 2024', columns: '2024 2023' }, run: 2 };
        await s.jobs.update('j1', { status: 'processing', readingPage: 1, diedOnPage: 1 });
        const updated = await s.jobs.update('j1', { checkpoint, readingPage: 252 });
        expect(updated).to.deep.include({ checkpoint, readingPage: 252, diedOnPage: 1 });
        expect(await s.jobs.findById('j1')).to.deep.include({ checkpoint, readingPage: 252, diedOnPage: 1 });
        await s.jobs.update('j1', { checkpoint: undefined, readingPage: undefined, diedOnPage: undefined });
        expect(await s.jobs.findById('j1')).to.not.have.any.keys('checkpoint', 'readingPage', 'diedOnPage');
        await s.jobs.create(job('j2', 's1', { key: 'u1/other.pdf', status: 'processing', checkpoint, readingPage: 252 }));
        expect(await s.jobs.findById('j2')).to.deep.include({ checkpoint, readingPage: 252 });
      });

      it('keeps a document’s kind, given at creation or told later', async () => {
        await s.jobs.create(job('j1', 's1'));
        expect(await s.jobs.findById('j1')).to.not.have.property('kind');
        expect(await s.jobs.update('j1', { status: 'completed', kind: 'receipt' })).to.include({ kind: 'receipt' });
        expect(await s.jobs.findById('j1')).to.include({ kind: 'receipt' });
        await s.jobs.create(job('j2', 's1', { key: 'u1/other.pdf', kind: 'letter' }));
        expect((await s.jobs.listBySession('s1')).map((j) => j.kind)).to.deep.equal(['receipt', 'letter']);
      });

      it('keeps the unit labels of a document without pages, in page order, given at creation or told later', async () => {
        await s.jobs.create(job('j1', 's1'));
        expect(await s.jobs.findById('j1')).to.not.have.property('units');
        const units = ['Sheet Q3', '', 'Sheet “Notes”, ü'];
        expect(await s.jobs.update('j1', { status: 'completed', units })).to.deep.include({ units });
        expect(await s.jobs.findById('j1')).to.deep.include({ units });
        await s.jobs.create(job('j2', 's1', { key: 'u1/other.docx', units: ['1. Scope'] }));
        expect((await s.jobs.listBySession('s1')).map((j) => j.units)).to.deep.equal([units, ['1. Scope']]);
        await s.jobs.update('j1', { units: undefined });
        expect(await s.jobs.findById('j1')).to.not.have.property('units');
      });

      it('finds the user’s queued or processing job for a key, and refuses a second one, also created concurrently', async () => {
        const key = 'u1/shared.pdf';
        await s.jobs.create(job('j1', 's1', { key, status: 'completed' }));
        await s.jobs.create(job('j2', 's1', { key, status: 'failed' }));
        expect(await s.jobs.findActiveByKey('u1', key)).to.equal(null);
        await s.jobs.create(job('j3', 's2', { key, status: 'processing' }));
        expect((await s.jobs.findActiveByKey('u1', key))?.id).to.equal('j3');
        expect(await s.jobs.findActiveByKey('u2', key)).to.equal(null);
        const refused = await s.jobs.create(job('j4', 's1', { key })).then(() => null, (e: unknown) => e);
        expect(refused).to.be.instanceOf(IngestAlreadyActiveError).and.have.property('jobId', 'j3');
        expect(await s.jobs.findById('j4')).to.equal(null);
        await s.jobs.create(job('j5', 's1', { key, status: 'failed' })); // a finished job is always stored
        await s.jobs.create(job('j6', 's1', { key, userId: 'u2' })); // another user's job
        await s.jobs.update('j3', { status: 'completed' });
        // Two at once: exactly one is stored, the other names it.
        const results = await Promise.allSettled([s.jobs.create(job('j7', 's1', { key })), s.jobs.create(job('j8', 's1', { key }))]);
        const stored = results.filter((r) => r.status === 'fulfilled');
        const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
        expect(stored).to.have.length(1);
        expect(failures).to.have.length(1);
        const winner = (await s.jobs.findActiveByKey('u1', key))!.id;
        expect(failures[0]).to.be.instanceOf(IngestAlreadyActiveError).and.have.property('jobId', winner);
      });

      it('lists unfinished jobs oldest first, and a session’s jobs', async () => {
        await s.jobs.create(job('j3', 's1', { status: 'processing' }));
        await s.jobs.create(job('j1', 's1'));
        await s.jobs.create(job('j2', 's2', { status: 'completed' }));
        await s.jobs.create(job('j4', 's2', { status: 'failed', error: 'bad' }));
        expect((await s.jobs.listUnfinished()).map((j) => j.id)).to.deep.equal(['j1', 'j3']);
        expect((await s.jobs.listBySession('s2')).map((j) => j.id)).to.deep.equal(['j2', 'j4']);
      });

      it('refuses a second job with an id already stored, and keeps the first', async () => {
        await s.jobs.create(job('j1', 's1', { status: 'completed' }));
        const refused = await s.jobs.create(job('j1', 's2', { status: 'completed', key: 'u1/other.pdf' })).then(() => null, (e: unknown) => e);
        expect(refused).to.be.instanceOf(Error);
        expect(await s.jobs.findById('j1')).to.include({ sessionId: 's1' });
      });

      it('lists a user’s completed jobs with a content hash across sessions, newest first, by content, up to a limit', async () => {
        await s.jobs.create(job('j3', 's2', { status: 'completed', sha256: 'h', copiedFrom: 'j1' }));
        await s.jobs.create(job('j1', 's1', { status: 'completed', sha256: 'h' }));
        await s.jobs.create(job('j2', 's1', { status: 'completed', sha256: 'g' }));
        await s.jobs.create(job('j4', 's1', { status: 'failed', sha256: 'h' }));
        await s.jobs.create(job('j5', 's1', { status: 'completed' })); // no hash: never read
        await s.jobs.create(job('j6', 's3', { status: 'completed', sha256: 'h', userId: 'u2' }));
        expect((await s.jobs.listCompletedByUser('u1', { limit: 10 })).map((j) => j.id)).to.deep.equal(['j3', 'j2', 'j1']);
        expect((await s.jobs.listCompletedByUser('u1', { limit: 2 })).map((j) => j.id)).to.deep.equal(['j3', 'j2']);
        expect((await s.jobs.listCompletedByUser('u1', { sha256: 'h', limit: 10 })).map((j) => j.id)).to.deep.equal(['j3', 'j1']);
        expect((await s.jobs.listCompletedByUser('u2', { limit: 10 })).map((j) => j.id)).to.deep.equal(['j6']);
        expect(await s.jobs.listCompletedByUser('u3', { limit: 10 })).to.deep.equal([]);
        expect(await s.jobs.findById('j3')).to.include({ copiedFrom: 'j1' });
        expect(await s.jobs.findById('j1')).to.not.have.property('copiedFrom');
      });

      it('keeps the mail a job came attached to', async () => {
        await s.jobs.create(job('j1', 's1', { status: 'completed' }));
        await s.jobs.create(job('j2', 's1', { status: 'queued', key: 'u1/contract.pdf', attachedTo: 'j1' }));
        expect(await s.jobs.findById('j2')).to.include({ attachedTo: 'j1' });
        expect(await s.jobs.findById('j1')).to.not.have.property('attachedTo');
      });

      it('finds a completed job of the same session by content hash', async () => {
        await s.jobs.create(job('j1', 's1', { status: 'completed', sha256: 'h' }));
        await s.jobs.create(job('j2', 's1', { status: 'failed', sha256: 'g' }));
        expect((await s.jobs.findCompletedBySha256('s1', 'h'))?.id).to.equal('j1');
        expect(await s.jobs.findCompletedBySha256('s2', 'h')).to.equal(null);
        expect(await s.jobs.findCompletedBySha256('s1', 'g')).to.equal(null);
      });

      it('lists the jobs of every session that ingested a key, oldest first', async () => {
        // Completed: one key has at most one active job at a time.
        await s.jobs.create(job('j2', 's2', { key: 'shared.pdf', status: 'completed' }));
        await s.jobs.create(job('j1', 's1', { key: 'shared.pdf', status: 'completed' }));
        await s.jobs.create(job('j3', 's1'));
        expect((await s.jobs.listByKey('shared.pdf')).map((j) => j.id)).to.deep.equal(['j1', 'j2']);
        expect(await s.jobs.listByKey('other.pdf')).to.deep.equal([]);
      });

      it('counts jobs of every session by status', async () => {
        expect(await s.jobs.countByStatus()).to.satisfy((counts: Record<string, number>) => Object.values(counts).every((n) => n === 0));
        await s.jobs.create(job('j1', 's1'));
        await s.jobs.create(job('j2', 's2', { status: 'processing' }));
        await s.jobs.create(job('j3', 's1', { status: 'completed' }));
        await s.jobs.create(job('j4', 's2', { status: 'completed' }));
        await s.jobs.create(job('j5', 's2', { status: 'failed', error: 'bad' }));
        await s.jobs.update('j1', { status: 'completed' });
        expect(await s.jobs.countByStatus()).to.deep.equal({ processing: 1, completed: 3, failed: 1 });
      });

      it('deletes a session’s jobs only', async () => {
        await s.jobs.create(job('j1', 's1'));
        await s.jobs.create(job('j2', 's2'));
        expect(await s.jobs.deleteBySession('s1')).to.equal(1);
        expect(await s.jobs.findById('j1')).to.equal(null);
        expect(await s.jobs.findById('j2')).to.not.equal(null);
      });
    });

    describe('SessionEraser', () => {
      const upload = (key: string) => ({
        key, userId: 'u1', contentType: 'application/pdf', declaredSize: 1, issuedAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-01-01T01:00:00.000Z',
      });

      async function seed(): Promise<void> {
        for (const id of ['s1', 's2']) {
          await s.sessions.create(session(id, 'u1', '2026-01-01T00:00:00.000Z'));
          await s.chats.appendExchange(message(0, id), message(1, id));
          await s.jobs.create(job(`j-${id}`, id, { key: `u1/${id}.pdf` }));
          for (const key of [`u1/${id}.pdf`, `u1/${id}-recent.pdf`]) {
            await s.uploads.create(upload(key));
            await s.uploads.markIngested(key, '2026-01-01T00:10:00.000Z', 'etag');
          }
        }
      }
      const settled = { remove: ['u1/s1.pdf'], release: ['u1/s1-recent.pdf'] };

      async function expectWhole(id: string): Promise<void> {
        expect(await s.sessions.findById(id), id).to.not.equal(null);
        expect(await s.chats.page(id, 0, 20), id).to.have.length(2);
        expect(await s.jobs.listBySession(id), id).to.have.length(1);
        expect(await s.uploads.findByKey(`u1/${id}.pdf`), id).to.deep.include({ ingestedAt: '2026-01-01T00:10:00.000Z', etag: 'etag' });
        expect(await s.uploads.findByKey(`u1/${id}-recent.pdf`), id).to.deep.include({ ingestedAt: '2026-01-01T00:10:00.000Z', etag: 'etag' });
      }

      it('deletes the session, its messages, its jobs and the upload records to remove; makes the released ones pending', async () => {
        await seed();
        await s.eraser.erase('s1', settled);
        expect(await s.sessions.findById('s1')).to.equal(null);
        expect(await s.chats.page('s1', 0, 20)).to.deep.equal([]);
        expect(await s.jobs.listBySession('s1')).to.deep.equal([]);
        expect(await s.uploads.findByKey('u1/s1.pdf')).to.equal(null);
        expect(await s.uploads.findByKey('u1/s1-recent.pdf')).to.deep.equal(upload('u1/s1-recent.pdf'));
        await expectWhole('s2');
        await s.eraser.erase('s1', { remove: [], release: [] });
      });

      it('deletes only the given jobs of the session and settles their upload records; the session and messages stay', async () => {
        await seed();
        await s.jobs.create(job('j-s1b', 's1', { key: 'u1/s1-recent.pdf', createdAt: '2026-01-01T00:00:05.000Z', updatedAt: '2026-01-01T00:00:05.000Z' }));
        // A job id of another session is not deleted through this session.
        await s.eraser.eraseDocuments('s1', ['j-s1', 'j-s2'], settled);
        expect((await s.jobs.listBySession('s1')).map((j) => j.id)).to.deep.equal(['j-s1b']);
        expect(await s.sessions.findById('s1')).to.not.equal(null);
        expect(await s.chats.page('s1', 0, 20)).to.have.length(2);
        expect(await s.uploads.findByKey('u1/s1.pdf')).to.equal(null);
        expect(await s.uploads.findByKey('u1/s1-recent.pdf')).to.deep.equal(upload('u1/s1-recent.pdf'));
        await expectWhole('s2');
      });

      it('changes nothing when it fails, so trying again completes it', async () => {
        await seed();
        const repair = await s.breakEraser();
        let failed = false;
        try {
          await s.eraser.erase('s1', settled);
        } catch {
          failed = true;
        } finally {
          await repair();
        }
        expect(failed).to.equal(true);
        await expectWhole('s1');
        await s.eraser.erase('s1', settled);
        expect(await s.sessions.findById('s1')).to.equal(null);
        expect(await s.chats.page('s1', 0, 20)).to.deep.equal([]);
        expect(await s.jobs.listBySession('s1')).to.deep.equal([]);
        expect(await s.uploads.findByKey('u1/s1.pdf')).to.equal(null);
      });
    });
  });
}
