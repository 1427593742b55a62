import { expect } from 'chai';
import type { JobQueue } from '../../core/ports/job-queue.js';

export interface JobQueueSubject {
  queue: JobQueue;
  /** Called after each test (stop the queue…). */
  close?(): Promise<void>;
}

/** Builds a queue that runs each job with `run`, at most `concurrency` at once. */
export type MakeJobQueue = (run: (jobId: string) => Promise<void>, concurrency: number) => JobQueueSubject | Promise<JobQueueSubject>;

/** Waits until `done()` holds (jobs run in the background), failing after `timeoutMs`. */
async function until(done: () => boolean, what: string, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) expect.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ids = (n: number) => Array.from({ length: n }, (_, i) => `job-${i + 1}`);

/**
 * What every JobQueue must do (core/ports/job-queue.ts: "Runs ingestion jobs in the background, in order, a few at a
 * time"): enqueue returns before the job ends; each enqueued job runs exactly once; jobs start in enqueue order; no
 * more than the configured number run at once (and that many do when enough wait); a job that throws does not stop
 * the others.
 */
export function jobQueueContract(name: string, makeQueue: MakeJobQueue): void {
  describe(`JobQueue contract: ${name}`, function () {
    let subject: JobQueueSubject | undefined;
    const make = async (run: (jobId: string) => Promise<void>, concurrency: number) => {
      subject = await makeQueue(run, concurrency);
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
      expect(queue.enqueue('job-1')).to.equal(undefined);
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
      for (const id of ids(12)) queue.enqueue(id);
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
        for (const id of ids(9)) queue.enqueue(id);
        await until(() => finished === 9, '9 jobs');
        expect(started).to.deep.equal(ids(9));
      });

      it(`runs at most ${concurrency} at once, and that many while enough wait`, async function () {
        let running = 0;
        let most = 0;
        let finished = 0;
        const queue = await make(async () => {
          running += 1;
          most = Math.max(most, running);
          await tick(5);
          running -= 1;
          finished += 1;
        }, concurrency);
        for (const id of ids(10)) queue.enqueue(id);
        await until(() => finished === 10, '10 jobs');
        expect(most).to.equal(concurrency);
      });
    }

    it('keeps running the other jobs when one throws', async function () {
      const done: string[] = [];
      const queue = await make(async (id) => {
        await tick(1);
        if (id === 'job-2') throw new Error('boom');
        done.push(id);
      }, 1);
      for (const id of ids(4)) queue.enqueue(id);
      await until(() => done.length === 3, 'the other jobs');
      queue.enqueue('job-5'); // still takes new jobs
      await until(() => done.length === 4, 'a job enqueued after the failure');
      expect(done).to.deep.equal(['job-1', 'job-3', 'job-4', 'job-5']);
    });
  });
}
