import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { AnswerPool, AnswerQueueFullError, PooledLlm, PooledReranker } from '../../../adapters/answer-pool/index.js';
import { moduleLoadingOptions } from '../../../adapters/answer-pool/answer-pool.js';
import { SERVICE_NODE_FLAGS } from '../../../server/node-flags.js';
import { ExtractiveAnswerer } from '../../../adapters/extractive/extractive-answerer.js';
import type { AnswerRequest } from '../../../core/ports/llm.js';
import type { ChunkHit } from '../../../core/ports/vector-index.js';
import { rerank } from '../../../core/rag/rerank.js';
import { describeWithCorpus } from '../../support/corpus.js';
import { CORPUS_DIR, REPO_ROOT } from '../../support/paths.js';

const TEST_WORKER = path.join(REPO_ROOT, 'test/support/answer-pool-test-worker.ts');

const PASSAGES = [
  'The monthly maintenance fee is 12 dollars for a standard checking account. The fee is waived with a balance of 1,500 dollars.',
  'Overdraft protection transfers cost 10 dollars each. Foreign ATM withdrawals cost 3 dollars per withdrawal.',
];

function request(question: string): AnswerRequest {
  return {
    question,
    contexts: PASSAGES.map((text, i) => ({ ref: `[${i + 1}]`, filename: 'fees.pdf', page: i + 1, text, score: 2 - i })),
    history: [],
  };
}

/** Settles within `ms`, or fails the test saying what did not happen in time. */
function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The error `promise` rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

/**
 * Resolves once the pool has `n` tasks running (the task reached a thread). Up to 20 s: a thread loading the
 * TypeScript worker took over 5 s once in a fresh clone's first `npm test` (stop 34), and it returns as soon as they run.
 */
async function untilRunning(pool: AnswerPool, n: number): Promise<void> {
  for (let i = 0; i < 2_000 && pool.stats().inFlight < n; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(pool.stats().inFlight, 'tasks running').to.equal(n);
}

describe('answer pool (worker threads, loaded from the TypeScript sources)', function () {
  this.timeout(60_000);

  describe('the real worker', () => {
    let pool: AnswerPool;
    before(() => (pool = new AnswerPool({ threads: 2, maxQueued: 100 })));
    after(() => pool.close());

    it('answers as the extractive answerer does on the request thread', async () => {
      const inline = new ExtractiveAnswerer();
      const pooled = new PooledLlm(pool);
      for (const question of ['What is the monthly maintenance fee?', 'How much does a foreign ATM withdrawal cost?', 'Who won the Super Bowl?']) {
        expect(await pooled.answer(request(question)), question).to.deep.equal(await inline.answer(request(question)));
      }
    });

    it('streams the same answer in sentences, and reports threads and load', async () => {
      const pieces: string[] = [];
      const stream = new PooledLlm(pool).answerStream(request('What is the monthly maintenance fee?'), new AbortController().signal);
      let next = await stream.next();
      for (; !next.done; next = await stream.next()) pieces.push(next.value);
      expect(pieces.join('')).to.equal(next.value.text).and.equal((await new ExtractiveAnswerer().answer(request('What is the monthly maintenance fee?'))).text);
      expect(pool.stats()).to.deep.equal({ threads: 2, inFlight: 0, queued: 0 });
    });
  });

  describeWithCorpus('the same answers and rankings as on the request thread, on SQuAD questions', () => {
    let pool: AnswerPool;
    before(() => (pool = new AnswerPool({ threads: 2, maxQueued: 1000 })));
    after(() => pool.close());

    it('for 4 articles × 10 questions: identical re-ranking of every paragraph and identical answers', async () => {
      const squad = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, 'squad/squad-v1.1-dev-part-a.json'), 'utf8')) as {
        data: { title: string; paragraphs: { context: string; qas: { question: string }[] }[] }[];
      };
      const inline = new ExtractiveAnswerer();
      const pooledLlm = new PooledLlm(pool);
      const pooledReranker = new PooledReranker(pool);
      let compared = 0;
      for (const article of squad.data.slice(0, 4)) {
        const hits: ChunkHit[] = article.paragraphs.map((p, i) => ({
          chunk: { id: `c${i}`, sessionId: 's', jobId: 'j', filename: `${article.title}.pdf`, page: i + 1, ordinal: i, text: p.context, tags: {} },
          score: 1 / (1 + i),
        }));
        for (const question of article.paragraphs.flatMap((p) => p.qas.map((q) => q.question)).slice(0, 10)) {
          const ranked = rerank(question, hits);
          const pooledRanked = await pooledReranker.rerank(question, hits);
          expect(pooledRanked.map((h) => h.chunk.id), question).to.deep.equal(ranked.map((h) => h.chunk.id));
          const contexts = ranked.slice(0, 6).map((h, i) => ({ ref: `[${i + 1}]`, filename: h.chunk.filename, page: h.chunk.page, text: h.chunk.text, score: h.score }));
          const asked = { question, contexts, history: [] };
          expect(await pooledLlm.answer(asked), question).to.deep.equal(await inline.answer(asked));
          compared++;
        }
      }
      expect(compared).to.equal(40);
    });
  });

  describe('in a process started with the service\'s Node options', () => {
    it('gives its threads only the module-loading options (a Worker refuses V8 options such as --max-semi-space-size)', () => {
      expect(moduleLoadingOptions(['--max-semi-space-size=8', '--expose-gc', '--require', '/x/preflight.cjs', '--import', 'file:///x/loader.mjs', '--cpu-prof']))
        .to.deep.equal(['--require', '/x/preflight.cjs', '--import', 'file:///x/loader.mjs']);
      expect(moduleLoadingOptions(['--import=tsx', '--no-experimental-require-module', '--max-old-space-size=1024'])).to.deep.equal(['--import=tsx', '--no-experimental-require-module']);
    });

    it('answers through its threads (the service runs with --max-semi-space-size and --expose-gc)', function () {
      this.timeout(60_000);
      const script = [
        "import { AnswerPool, PooledLlm } from './adapters/answer-pool/index.ts';",
        'const pool = new AnswerPool({ threads: 1, maxQueued: 4 });',
        `const answer = await new PooledLlm(pool).answer(${JSON.stringify(request('What is the monthly maintenance fee?'))});`,
        'console.log(answer.text); await pool.close();',
      ].join('\n');
      const run = spawnSync(process.execPath, [...SERVICE_NODE_FLAGS, '--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 50_000 });
      expect(run.stderr).to.equal('');
      expect(run.stdout).to.include('12 dollars');
    });
  });

  describe('misbehaving tasks (a worker that can crash or hang)', () => {
    let pool: AnswerPool;
    let queueFull = 0;
    beforeEach(() => {
      queueFull = 0;
      // Four tasks per thread: waiting tasks are handed to the thread ahead of time, the harder case for aborts and crashes.
      pool = new AnswerPool({ threads: 1, tasksPerThread: 4, maxQueued: 2, workerFile: TEST_WORKER, onQueueFull: () => queueFull++ });
    });
    afterEach(() => pool.close());

    it('a crashed thread fails only its own task and is replaced; the task queued behind it is answered', async () => {
      const before = pool.threadIds();
      const llm = new PooledLlm(pool);
      const crashing = llm.answer(request('CRASH THREAD: what is the fee?'));
      const behind = llm.answer(request('What is the monthly maintenance fee?'));
      const [crashed, answered] = await Promise.allSettled([crashing, behind]);
      expect(crashed.status).to.equal('rejected');
      expect(answered.status, 'the queued task').to.equal('fulfilled');
      expect((answered as PromiseFulfilledResult<{ text: string }>).value.text).to.include('12 dollars');
      expect(pool.threadIds()).to.have.length(1);
      expect(pool.threadIds()[0], 'a new thread').to.not.equal(before[0]);
      expect(await llm.answer(request('How much does a foreign ATM withdrawal cost?'))).to.have.property('usedRefs').that.deep.equals(['[2]']);
    });

    it('aborting a running task frees its thread at once (the busy thread is replaced)', async () => {
      const llm = new PooledLlm(pool);
      const controller = new AbortController();
      const hung = llm.answer(request('SPIN 30000 what is the fee?'), controller.signal);
      await untilRunning(pool, 1);
      controller.abort(new Error('client went away'));
      expect((await rejection(hung)).message).to.equal('client went away');
      // The 30 s task no longer holds the only thread: the next question is answered well within that.
      const answer = await within(10_000, llm.answer(request('What is the monthly maintenance fee?')), 'the next answer');
      expect(answer.text).to.include('12 dollars');
    });

    it('a thread starts the next task handed to it while the request thread is busy (it does not wait to be given it)', async () => {
      const llm = new PooledLlm(pool);
      const first = llm.answer(request('SPIN 300 what is the fee?'));
      const second = llm.answer(request('What is the monthly maintenance fee?'));
      await untilRunning(pool, 1);
      // No event-loop turn from here: only the thread itself can move on to the second task.
      const until = Date.now() + 10_000;
      while (pool.stats().queued > 0 && Date.now() < until);
      expect(pool.stats().queued, 'the second task started on the thread while this thread was blocked').to.equal(0);
      expect((await second).text).to.include('12 dollars');
      await first;
    });

    it('a thread that runs dry takes over a task waiting at a busy thread', async () => {
      const two = new AnswerPool({ threads: 2, tasksPerThread: 4, maxQueued: 8, workerFile: TEST_WORKER });
      try {
        const llm = new PooledLlm(two);
        let longDone = false;
        // Long enough that a loaded machine cannot finish the others first by chance; aborted once they are done.
        const stopLong = new AbortController();
        const long = llm.answer(request('SPIN 20000 what is the fee?'), stopLong.signal).finally(() => (longDone = true));
        // The long task runs before the short one is given: else a second thread, up first while the first still loads
        // its TypeScript worker, could take the short one and finish it before the long one starts (CI saw 1 of 2).
        await untilRunning(two, 1);
        const short = llm.answer(request('SPIN 200 what is the fee?'));
        await untilRunning(two, 2);
        // Both threads hold a task now: these two are handed out behind them, one to each thread.
        const behind = [llm.answer(request('What is the monthly maintenance fee?')), llm.answer(request('How much does a foreign ATM withdrawal cost?'))];
        await short;
        await Promise.all(behind);
        expect(longDone, 'both waiting tasks ran on the thread that finished first, before the 20 s task ended').to.equal(false);
        stopLong.abort(new Error('done'));
        expect((await rejection(long)).message).to.equal('done');
      } finally {
        await two.close();
      }
    });

    it('threads that cannot load fail the tasks given to them instead of being started again without end', async () => {
      const broken = new AnswerPool({ threads: 2, maxQueued: 8, minThreads: 1, workerFile: path.join(REPO_ROOT, 'test/support/answer-pool-broken-worker.ts') });
      try {
        const llm = new PooledLlm(broken);
        const answers = await Promise.allSettled([1, 2, 3].map(() => llm.answer(request('What is the monthly maintenance fee?'))));
        for (const answer of answers) expect((answer as PromiseRejectedResult).reason?.message).to.match(/could not start/);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(broken.stats(), 'no thread left running or started again').to.deep.equal({ threads: 0, inFlight: 0, queued: 0 });
      } finally {
        await broken.close();
      }
    });

    it('aborting a waiting task takes it off the queue; a full queue refuses the next task (503 error)', async () => {
      const llm = new PooledLlm(pool);
      const first = llm.answer(request('SPIN 1500 what is the fee?'));
      await untilRunning(pool, 1);
      const controller = new AbortController();
      const waiting = llm.answer(request('What is the monthly maintenance fee?'), controller.signal);
      const alsoWaiting = llm.answer(request('What is the monthly maintenance fee?'));
      expect(pool.stats().queued).to.equal(2);
      expect(await rejection(llm.answer(request('What is the monthly maintenance fee?')))).to.be.instanceOf(AnswerQueueFullError);
      expect(queueFull).to.equal(1);
      controller.abort(new Error('client went away'));
      expect((await rejection(waiting)).message).to.equal('client went away');
      expect(pool.stats().queued, 'the aborted task left the queue').to.equal(1);
      const rerankedBehind = new PooledReranker(pool).rerank('fee', [
        { chunk: { id: 'a', sessionId: 's', jobId: 'j', filename: 'a.pdf', page: 1, ordinal: 0, text: PASSAGES[1], tags: {} }, score: 2 },
        { chunk: { id: 'b', sessionId: 's', jobId: 'j', filename: 'a.pdf', page: 2, ordinal: 1, text: PASSAGES[0], tags: {} }, score: 1 },
      ]);
      await Promise.all([first, alsoWaiting, rerankedBehind]);
      expect(pool.stats()).to.deep.equal({ threads: 1, inFlight: 0, queued: 0 });
    });
  });
});
