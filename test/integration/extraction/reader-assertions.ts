import { expect } from 'chai';
import type { ExtractedPage } from '../../../core/domain/model.js';

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(Error);
    return error as Error;
  }
  expect.fail('expected the promise to reject');
}

export function allText(pages: ExtractedPage[]): string {
  return pages.map((page) => page.text).join('\n');
}

export function expectIncreasingToOne(progress: number[]): void {
  expect(progress.length).to.be.greaterThan(0);
  for (let i = 1; i < progress.length; i++) expect(progress[i]).to.be.greaterThan(progress[i - 1]);
  expect(progress[0]).to.be.at.least(0);
  expect(progress.at(-1)).to.equal(1);
}
