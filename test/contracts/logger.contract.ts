import { expect } from 'chai';
import type { Logger } from '../../core/ports/logger.js';

/** One entry as the subject reads it back from wherever its logger wrote. */
export interface LoggedEntry {
  level: 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown>;
}

export interface LoggerSubject {
  logger: Logger;
  /** What the logger has written so far, oldest first. */
  entries(): LoggedEntry[];
}

/**
 * What every Logger must do: write each call once, at its level, with its message and fields; and never throw or
 * alter the caller's fields, whatever they hold (errors, cycles, big integers): a log call must not break the work
 * it reports on.
 */
export function loggerContract(name: string, makeSubject: () => LoggerSubject): void {
  describe(`Logger contract: ${name}`, () => {
    it('writes each call once, at its level, with its message and fields', () => {
      const subject = makeSubject();
      subject.logger.info('job resumed', { jobId: 'j1', count: 2 });
      subject.logger.warn('slow dependency', { dependency: 'chroma', ms: 1500 });
      subject.logger.error('job failed', { jobId: 'j2', error: 'Error: boom' });
      subject.logger.info('no fields');
      const entries = subject.entries();
      expect(entries.map((e) => [e.level, e.message])).to.deep.equal([
        ['info', 'job resumed'], ['warn', 'slow dependency'], ['error', 'job failed'], ['info', 'no fields'],
      ]);
      expect(entries[0].fields).to.deep.include({ jobId: 'j1', count: 2 });
      expect(entries[1].fields).to.deep.include({ dependency: 'chroma', ms: 1500 });
      expect(entries[2].fields).to.deep.include({ jobId: 'j2', error: 'Error: boom' });
    });

    it('never throws on fields that plain JSON cannot hold, and leaves them as they were', () => {
      const subject = makeSubject();
      const cyclic: Record<string, unknown> = { name: 'cyclic' };
      cyclic.self = cyclic;
      const fields = { cyclic, big: 10n ** 20n, error: new Error('boom'), missing: undefined, when: new Date(0) };
      const before = Object.keys(fields);
      expect(() => subject.logger.error('odd fields', fields)).to.not.throw();
      expect(Object.keys(fields)).to.deep.equal(before);
      expect(cyclic.self).to.equal(cyclic);
      const entries = subject.entries();
      expect(entries.map((e) => [e.level, e.message])).to.deep.equal([['error', 'odd fields']]);
      // An Error keeps its message (written as JSON, a bare Error would be {}).
      const error = entries[0].fields.error as { message?: unknown } | undefined;
      expect(error?.message).to.equal('boom');
    });
  });
}
