import { expect } from 'chai';
import { JobStoppedError } from '../../core/domain/errors.js';
import type { JobHandler, JobQueue } from '../../core/ports/job-queue.js';

export interface JobQueueSubject {
  queue: JobQueue;
  /** Called after each test (stop the queue…). */
  close?(): Promise<void>;
}

/** Builds a queue that runs each job with `run`, at most `concurrency` at once and `perUser` of one user. */
export type MakeJobQueue = (run: JobHandler, limits: { concurrency: number; perUser: number }) => JobQueueSubject | Promise<JobQueueSubject>;

/** How long the suite waits for what a queue does in the background. */
export interface JobQueueContractOptions {
  /** Per wait; default 2000 ms. A queue that polls a database may need longer; what is checked stays the same. */
  timeoutMs?: number;
}

/** Waits until `done()` holds (jobs run in the background), failing after `timeoutMs`. */
async function waitUntil(done: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) expect.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ids = (n: number) => Array.from({ length: n }, (_, i) => `job-${i + 1}`);
/** Jobs of one user (the ordering and concurrency tests), as the queue takes them. */
const ofUser = (id: string, userId = 'u1') => ({ id, userId });

/**
 * What every JobQueue must do (core/ports/job-queue.ts): enqueue returns before the job ends; each enqueued job runs
 * exactly once, even if enqueued again while it waits or runs; one user's jobs start in enqueue order; no more than
 * the configured number run at once (and that many do when enough wait); users take turns, each below its own limit;
 * a job that throws does not stop the others; cancel drops a waiting job and aborts a running one's signal; a job
 * that says it is finishing frees its slot for the next job, up to one such job beyond each limit.
 */
export function jobQueueContract(name: string, makeQueue: MakeJobQueue, options: JobQueueContractOptions = {}): void {
  const until = (done: () => boolean, what: string) => waitUntil(done, what, options.timeoutMs ?? 2000);
  describe(`JobQueue contract: ${name}`, function () {
    let subject: JobQueueSubject | undefined;
    const make = async (run: JobHandler, concurrency: number, perUser = concurrency) => {
      subject = await makeQueue(run, { concurrency, perUser });
      return subject.queue;
    };

    afterEach(async function () {
      await subject?.close?.();
      subject = undefined;
    });

    it('enqueue returns at once, without waiting for the job', async function () {
      let release!: () => void;
      const blocker = new Promise<void>((resolve) => (release = resolve));
      let finished = false;
      const queue = await make(async () => {
        await blocker;
        finished = true;
      }, 1);
      expect(queue.enqueue(ofUser('job-1'))).to.equal(undefined);
      expect(finished).to.equal(false);
      release();
      await until(() => finished, 'the job to finish');
    });

    it('runs every enqueued job exactly once', async function () {
      const runs: string[] = [];
      const queue = await make(async (id) => {
        await tick(Number(id.slice(4)) % 4); // uneven durations
        runs.push(id);
      }, 2);
      for (const id of ids(12)) queue.enqueue(ofUser(id));
      await until(() => runs.length >= 12, '12 jobs');
      await tick(30); // nothing runs twice
      expect([...runs].sort()).to.deep.equal(ids(12).sort());
    });

    for (const concurrency of [1, 3]) {
      it(`starts jobs in enqueue order (concurrency ${concurrency})`, async function () {
        const started: string[] = [];
        let finished = 0;
        const queue = await make(async (id) => {
          started.push(id);
          await tick(1 + (Number(id.slice(4)) % 3) * 3); // uneven durations
          finished += 1;
        }, concurrency);
        for (const id of ids(9)) queue.enqueue(ofUser(id));
        await until(() => finished === 9, '9 jobs');
        expect(started).to.deep.equal(ids(9));
      });

      it(`runs at most ${concurrency} at once, and that many while enough wait`, async function () {
        let running = 0;
        let most = 0;
        let finished = 0;
        // Jobs hold until released: "that many" must not depend on how fast a loaded machine hands out the next one.
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const queue = await make(async () => {
          running += 1;
          most = Math.max(most, running);
          await gate;
          running -= 1;
          finished += 1;
        }, concurrency);
        for (const id of ids(10)) queue.enqueue(ofUser(id));
        await until(() => running === concurrency, `${concurrency} running`);
        await tick(50); // room for a queue that would start one more
        expect(running).to.equal(concurrency);
        release();
        await until(() => finished === 10, '10 jobs');
        expect(most).to.equal(concurrency);
      });
    }

    it('runs a job once however often it is enqueued again while it waits or runs (lost sends are repaired so)', async function () {
      const runs: string[] = [];
      let release!: () => void;
      const blocker = new Promise<void>((resolve) => (release = resolve));
      const queue = await make(async (id) => {
        runs.push(id);
        if (id === 'job-1') await blocker;
      }, 1);
      queue.enqueue(ofUser('job-1'));
      queue.enqueue(ofUser('job-2'));
      await until(() => runs.length === 1, 'the first job');
      // As ResumeIngestion sends every long-queued job again at each lease check: job-1 runs, job-2 waits.
      for (let round = 0; round < 3; round++) {
        queue.enqueue(ofUser('job-2'));
        queue.enqueue(ofUser('job-1'));
        await tick(20);
      }
      expect(runs).to.deep.equal(['job-1']);
      release();
      await until(() => runs.length === 2, 'the waiting job');
      await tick(50);
      expect(runs).to.deep.equal(['job-1', 'job-2']);
    });

    it('takes users in turn: another user’s first job starts before the rest of a long queue', async function () {
      const started: string[] = [];
      let finished = 0;
      const queue = await make(async (id) => {
        started.push(id);
        await tick(3);
        finished += 1;
      }, 1, 1);
      for (const id of ['a1', 'a2', 'a3', 'a4']) queue.enqueue(ofUser(id, 'alice'));
      queue.enqueue(ofUser('b1', 'bob'));
      queue.enqueue(ofUser('b2', 'bob'));
      queue.enqueue(ofUser('c1', 'carol'));
      await until(() => finished === 7, '7 jobs');
      expect(started).to.deep.equal(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
    });

    it('runs at most the per-user limit of one user’s jobs, leaving the other slots to other users', async function () {
      const release = new Map<string, () => void>();
      const running = new Set<string>();
      const queue = await make(async (id) => {
        running.add(id);
        await new Promise<void>((resolve) => release.set(id, resolve));
        running.delete(id);
      }, 3, 1);
      for (const id of ['a1', 'a2', 'a3']) queue.enqueue(ofUser(id, 'alice'));
      await until(() => running.has('a1'), 'alice’s first job');
      await tick(20);
      expect([...running]).to.deep.equal(['a1']); // two slots free, but alice is at her limit
      queue.enqueue(ofUser('b1', 'bob'));
      await until(() => running.has('b1'), 'bob’s job, at once');
      release.get('a1')!();
      await until(() => running.has('a2'), 'alice’s next job once her first ends');
      expect([...running].sort()).to.deep.equal(['a2', 'b1']);
      release.get('a2')!();
      release.get('b1')!();
      await until(() => running.has('a3'), 'alice’s last job');
      release.get('a3')!();
      await until(() => running.size === 0, 'every job to end');
    });

    /** A queue whose jobs run until released, each able to say it is finishing: the test moves them along by id. */
    const heldJobs = async (concurrency: number, perUser: number) => {
      const release = new Map<string, () => void>();
      const finishing = new Map<string, () => void>();
      const running = new Set<string>();
      const queue = await make(async (id, _signal, finish) => {
        running.add(id);
        finishing.set(id, finish);
        await new Promise<void>((resolve) => release.set(id, resolve));
        running.delete(id);
      }, concurrency, perUser);
      return { queue, release, finishing, running };
    };

    it('starts a user’s next job beside one that is finishing, never more than one finishing beyond the limit', async function () {
      const { queue, release, finishing, running } = await heldJobs(3, 1);
      for (const id of ['a1', 'a2', 'a3']) queue.enqueue(ofUser(id, 'alice'));
      await until(() => running.has('a1'), 'alice’s first job');
      finishing.get('a1')!();
      finishing.get('a1')!(); // idempotent
      await until(() => running.has('a2'), 'alice’s second job, beside her finishing first one');
      finishing.get('a2')!();
      await tick(50);
      // Two slots of three are taken, but alice has one job in her limit and one finishing beyond it already.
      expect([...running].sort()).to.deep.equal(['a1', 'a2']);
      release.get('a1')!();
      await until(() => running.has('a3'), 'alice’s third job once her first ended');
      expect([...running].sort()).to.deep.equal(['a2', 'a3']);
      release.get('a2')!();
      release.get('a3')!();
      await until(() => running.size === 0, 'every job to end');
    });

    it('gives the slot of a finishing job to another user at once, counting it again past the queue’s limit', async function () {
      const { queue, release, finishing, running } = await heldJobs(1, 1);
      queue.enqueue(ofUser('a1', 'alice'));
      await until(() => running.has('a1'), 'alice’s job');
      queue.enqueue(ofUser('b1', 'bob'));
      queue.enqueue(ofUser('c1', 'carol'));
      await tick(50);
      expect([...running]).to.deep.equal(['a1']); // the one slot is taken
      finishing.get('a1')!();
      await until(() => running.has('b1'), 'bob’s job once alice’s is finishing');
      finishing.get('b1')!();
      await tick(50);
      // One finishing job beyond the limit at most: carol waits for one of them to end.
      expect([...running].sort()).to.deep.equal(['a1', 'b1']);
      release.get('a1')!();
      await until(() => running.has('c1'), 'carol’s job once alice’s ended');
      release.get('b1')!();
      release.get('c1')!();
      await until(() => running.size === 0, 'every job to end');
    });

    it('drops a cancelled waiting job: it never runs, and the next one takes its place', async function () {
      const started: string[] = [];
      let release!: () => void;
      const blocker = new Promise<void>((resolve) => (release = resolve));
      const queue = await make(async (id) => {
        started.push(id);
        if (id === 'job-1') await blocker;
      }, 1);
      for (const id of ids(3)) queue.enqueue(ofUser(id));
      await until(() => started.length === 1, 'the first job');
      queue.cancel('job-2');
      queue.cancel('no-such-job'); // ignored
      release();
      await until(() => started.length === 2, 'the third job');
      await tick(20);
      expect(started).to.deep.equal(['job-1', 'job-3']);
    });

    it('aborts a cancelled running job’s signal with a JobStoppedError, and only that job’s', async function () {
      const signals = new Map<string, AbortSignal>();
      const ended: string[] = [];
      const queue = await make(async (id, signal) => {
        signals.set(id, signal);
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        ended.push(id);
      }, 2, 1);
      queue.enqueue(ofUser('a1', 'alice'));
      queue.enqueue(ofUser('b1', 'bob'));
      await until(() => signals.size === 2, 'both jobs to start');
      expect(signals.get('a1')!.aborted).to.equal(false);
      queue.cancel('a1');
      await until(() => ended.includes('a1'), 'the cancelled job to stop');
      const reason = signals.get('a1')!.reason as JobStoppedError;
      expect(reason).to.be.instanceOf(JobStoppedError);
      expect(reason.why).to.equal('cancelled');
      expect(signals.get('b1')!.aborted).to.equal(false);
      queue.cancel('b1');
      await until(() => ended.length === 2, 'the other job to stop');
    });

    it('keeps running the other jobs when one throws', async function () {
      const done: string[] = [];
      const queue = await make(async (id) => {
        await tick(1);
        if (id === 'job-2') throw new Error('boom');
        done.push(id);
      }, 1);
      for (const id of ids(4)) queue.enqueue(ofUser(id));
      await until(() => done.length === 3, 'the other jobs');
      queue.enqueue(ofUser('job-5')); // still takes new jobs
      await until(() => done.length === 4, 'a job enqueued after the failure');
      expect(done).to.deep.equal(['job-1', 'job-3', 'job-4', 'job-5']);
    });
  });
}
