import { expect } from 'chai';
import type { ExtractedPage } from '../../../core/domain/model.js';

export { rejection } from '../../support/extraction-processes.js';

export function allText(pages: ExtractedPage[]): string {
  return pages.map((page) => page.text).join('\n');
}

export function expectIncreasingToOne(progress: number[]): void {
  expect(progress.length).to.be.greaterThan(0);
  for (let i = 1; i < progress.length; i++) expect(progress[i]).to.be.greaterThan(progress[i - 1]);
  expect(progress[0]).to.be.at.least(0);
  expect(progress.at(-1)).to.equal(1);
}
