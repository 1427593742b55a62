import { corpusSummary } from './corpus.js';

/** Mocha global teardown (loaded by .mocharc.json): after the reporter's totals, say what happened to the corpus suites. */
export function mochaGlobalTeardown(): void {
  const summary = corpusSummary();
  if (summary) console.log(`  ${summary}\n`);
}
