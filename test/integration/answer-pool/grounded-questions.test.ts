import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { AnswerPool, PooledGroundedAnswerer, PooledLlm } from '../../../adapters/answer-pool/index.js';
import { DEFAULT_THREAD_NICE } from '../../../adapters/answer-pool/answer-pool.js';
import { answerPlugins, createExtractiveAnswerer, DEFAULT_ANSWER_PLUGINS } from '../../../adapters/answer-plugins/index.js';
import { openSqliteDatabase, SqliteFtsIndex, type SqliteDatabase } from '../../../adapters/sqlite/index.js';
import type { GroundedQuestion } from '../../../core/ports/grounded-answerer.js';
import type { AnswerRequest } from '../../../core/ports/llm.js';
import { RetrieveAndAnswer } from '../../../core/use-cases/retrieve-and-answer.js';
import { describeWithCorpus } from '../../support/corpus.js';
import { CORPUS_DIR, REPO_ROOT } from '../../support/paths.js';

/**
 * Whole questions on the answer pool (retrieval from the thread's own read-only connection to the SQLite lexical
 * index, then the answer), and the order in which waiting questions of different users reach a thread.
 */

const TEST_WORKER = path.join(REPO_ROOT, 'test/support/answer-pool-test-worker.ts');
const FEES = [
  'The monthly maintenance fee is 12 dollars for a standard checking account. The fee is waived with a balance of 1,500 dollars.',
  'Overdraft protection transfers cost 10 dollars each. Foreign ATM withdrawals cost 3 dollars per withdrawal.',
];

function question(text: string, userId = 'u1'): GroundedQuestion {
  return { userId, sessionId: 'fees', question: text, history: [], filters: [], visibleJobIds: ['j-fees'] };
}

/** A database file holding `chunks` (written by the service's own connection, as ingestion does). */
async function databaseWith(dir: string, chunks: { sessionId: string; jobId: string; filename: string; texts: string[] }[]): Promise<{ file: string; database: SqliteDatabase }> {
  const file = path.join(dir, 'doc-chat.sqlite');
  const database = openSqliteDatabase(file);
  const index = new SqliteFtsIndex(database);
  for (const { sessionId, jobId, filename, texts } of chunks) {
    await index.add(texts.map((text, i) => ({ id: `${jobId}-${i}`, sessionId, jobId, filename, page: i + 1, ordinal: i, text, tags: {} })));
  }
  return { file, database };
}

describe('answer pool: whole questions searched on its threads', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-grounded-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  describeWithCorpus('the real worker on SQuAD articles', () => {
    it('gives the same answers and sources as the same retrieval on the request thread (4 articles × 10 questions)', async () => {
      const squad = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, 'squad/squad-v1.1-dev-part-a.json'), 'utf8')) as {
        data: { title: string; paragraphs: { context: string; qas: { question: string }[] }[] }[];
      };
      const articles = squad.data.slice(0, 4);
      // One session with all four articles: each question's search must find its own article among the others.
      const { file, database } = await databaseWith(dir, articles.map((a, i) => ({ sessionId: 'squad', jobId: `j${i}`, filename: `${a.title}.pdf`, texts: a.paragraphs.map((p) => p.context) })));
      const pool = new AnswerPool({ threads: 2, maxQueued: 100, sqliteFile: file });
      try {
        const here = new RetrieveAndAnswer({
          indexes: [new SqliteFtsIndex(database)],
          llm: createExtractiveAnswerer(),
          planners: answerPlugins(DEFAULT_ANSWER_PLUGINS).map((plugin) => plugin.planner),
        });
        const pooled = new PooledGroundedAnswerer(pool);
        let compared = 0;
        let answered = 0;
        for (const article of articles) {
          for (const text of article.paragraphs.flatMap((p) => p.qas.map((q) => q.question)).slice(0, 10)) {
            const asked: GroundedQuestion = { userId: 'u', sessionId: 'squad', question: text, history: [], filters: [], visibleJobIds: ['j0', 'j1', 'j2', 'j3'] };
            const [expected, got] = await Promise.all([here.answer(asked), pooled.answer(asked)]);
            expect(got, text).to.deep.equal(expected);
            compared++;
            if (got.answer.usedRefs.length > 0) answered++;
          }
        }
        expect(compared).to.equal(40);
        expect(answered, 'questions answered from the passages (not an empty index)').to.be.greaterThan(30);
      } finally {
        await pool.close();
        await database.close();
      }
    });
  });

  it('sees what the service wrote after the thread opened its connection, and only visible jobs', async () => {
    const { file, database } = await databaseWith(dir, [{ sessionId: 'fees', jobId: 'j-fees', filename: 'fees.pdf', texts: FEES }]);
    const pool = new AnswerPool({ threads: 1, maxQueued: 10, sqliteFile: file });
    try {
      const pooled = new PooledGroundedAnswerer(pool);
      const first = await pooled.answer(question('What is the monthly maintenance fee?'));
      expect(first.answer.text).to.include('12 dollars');
      await new SqliteFtsIndex(database).add([{ id: 'late-0', sessionId: 'fees', jobId: 'j-late', filename: 'late.pdf', page: 1, ordinal: 0, text: 'Wire transfers cost 25 dollars each.', tags: {} }]);
      const hidden = await pooled.answer(question('How much does a wire transfer cost?'));
      expect(hidden.answer.text, 'a job not visible is not read').to.not.include('25 dollars');
      expect(hidden.sources.map((source) => source.filename)).to.not.include('late.pdf');
      const shown = await pooled.answer({ ...question('How much does a wire transfer cost?'), visibleJobIds: ['j-fees', 'j-late'] });
      expect(shown.answer.text).to.include('25 dollars');
      expect(shown.sources.map((source) => source.filename)).to.include('late.pdf');
    } finally {
      await pool.close();
      await database.close();
    }
  });

  describe('misbehaving questions (a worker that can crash or hang)', () => {
    let pool: AnswerPool;
    let database: SqliteDatabase;
    beforeEach(async () => {
      const made = await databaseWith(dir, [{ sessionId: 'fees', jobId: 'j-fees', filename: 'fees.pdf', texts: FEES }]);
      database = made.database;
      pool = new AnswerPool({ threads: 1, tasksPerThread: 2, maxQueued: 10, workerFile: TEST_WORKER, sqliteFile: made.file });
    });
    afterEach(async () => {
      await pool.close();
      await database.close();
    });

    it('a crashed thread fails only its question; the question behind it is answered on a new thread', async () => {
      const pooled = new PooledGroundedAnswerer(pool);
      const [crashed, behind] = await Promise.allSettled([
        pooled.answer(question('CRASH THREAD: what is the fee?')),
        pooled.answer(question('What is the monthly maintenance fee?')),
      ]);
      expect(crashed.status).to.equal('rejected');
      expect((crashed as PromiseRejectedResult).reason.message).to.match(/stopped/);
      expect(behind.status).to.equal('fulfilled');
      expect((behind as PromiseFulfilledResult<{ answer: { text: string } }>).value.answer.text).to.include('12 dollars');
    });

    it('a question whose client went away frees the thread at once', async () => {
      const pooled = new PooledGroundedAnswerer(pool);
      const controller = new AbortController();
      const hung = pooled.answer(question('SPIN 30000 what is the fee?'), controller.signal);
      for (let i = 0; i < 500 && pool.stats().inFlight < 1; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      controller.abort(new Error('client went away'));
      const error = await hung.then(() => undefined, (e: Error) => e);
      expect(error?.message).to.equal('client went away');
      const started = Date.now();
      const next = await pooled.answer(question('What is the monthly maintenance fee?'));
      expect(next.answer.text).to.include('12 dollars');
      expect(Date.now() - started, 'not held behind the 30 s question').to.be.lessThan(20_000);
    });
  });

  it('hands waiting questions to threads in turns between users, not first come first served', async () => {
    const pool = new AnswerPool({ threads: 1, tasksPerThread: 1, maxQueued: 10, workerFile: TEST_WORKER });
    try {
      const ask = (text: string, user: string) => pool.run({ kind: 'answer', request: asked(text) }, undefined, user);
      const order: string[] = [];
      const track = (name: string, promise: Promise<unknown>) => promise.then(() => order.push(name));
      const blocker = track('blocker', ask('SPIN 500 what is the fee?', 'someone'));
      for (let i = 0; i < 500 && pool.stats().inFlight < 1; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      // User a asks three questions, then user b one, while the only thread is busy.
      const waiting = [track('a1', ask('What is the monthly maintenance fee?', 'a')), track('a2', ask('What is the monthly maintenance fee?', 'a')),
        track('a3', ask('What is the monthly maintenance fee?', 'a')), track('b1', ask('How much does a foreign ATM withdrawal cost?', 'b'))];
      await Promise.all([blocker, ...waiting]);
      expect(order).to.deep.equal(['blocker', 'a1', 'b1', 'a2', 'a3']);
      // Without a user (re-ranking and answers of other stacks), one shared turn: first come first served.
      const plain = new PooledLlm(pool);
      expect((await plain.answer(asked('What is the monthly maintenance fee?'))).text).to.include('12 dollars');
    } finally {
      await pool.close();
    }
  });
});

describe('answer pool: time its threads wait for the request thread', function () {
  this.timeout(60_000);

  it('counts how long a thread that finished sat idle with a task waiting until the request thread handed it over', async () => {
    const pool = new AnswerPool({ threads: 1, tasksPerThread: 1, maxQueued: 4, workerFile: TEST_WORKER });
    try {
      const llm = new PooledLlm(pool);
      await llm.answer(asked('What is the monthly maintenance fee?')); // the thread has started
      expect(pool.handOffWaitSeconds(), 'nothing waited yet').to.equal(0);
      const first = llm.answer(asked('What is the monthly maintenance fee?'));
      const second = llm.answer(asked('How much does a foreign ATM withdrawal cost?'));
      // The request thread busy for a second: the thread answers the first at once, then has nothing until this ends.
      const until = Date.now() + 1000;
      while (Date.now() < until);
      await Promise.all([first, second]);
      expect(pool.handOffWaitSeconds()).to.be.greaterThan(0.5).and.lessThan(30);
    } finally {
      await pool.close();
    }
  });
});

describe('answer pool: its threads\' scheduling priority', function () {
  this.timeout(60_000);

  it('runs its threads that much nicer than the request thread when asked (Linux), and DEFAULT_THREAD_NICE nicer by default', async () => {
    const own = os.getPriority();
    expect(DEFAULT_THREAD_NICE, 'cheap requests go first by default').to.be.greaterThan(0);
    for (const [nice, expected] of [[undefined, Math.min(19, own + DEFAULT_THREAD_NICE)], [0, own], [7, Math.min(19, own + 7)]] as const) {
      const pool = new AnswerPool({ threads: 1, maxQueued: 4, workerFile: TEST_WORKER, nice });
      try {
        expect((await new PooledLlm(pool).answer(asked('REPORT NICE'))).text, `nice ${nice}`).to.equal(String(expected));
        expect(os.getPriority(), 'the request thread keeps its priority').to.equal(own);
      } finally {
        await pool.close();
      }
    }
  });
});

function asked(text: string): AnswerRequest {
  return { question: text, contexts: FEES.map((t, i) => ({ ref: `[${i + 1}]`, filename: 'fees.pdf', page: i + 1, text: t, score: 2 - i })), history: [] };
}
