import { CORPUS_AVAILABLE, CORPUS_DIR, CORPUS_MISSING } from './paths.js';

/** Suites registered through describeWithCorpus, kept on globalThis so the end-of-run report sees them however loaded. */
interface CorpusSuites {
  ran: Mocha.Suite[];
  skipped: Mocha.Suite[];
}
const KEY = Symbol.for('doc-chat.corpus-suites');
function corpusSuites(): CorpusSuites {
  const scope = globalThis as { [KEY]?: CorpusSuites };
  return (scope[KEY] ??= { ran: [], skipped: [] });
}

/**
 * A suite that needs the real-document corpus. Without it the suite is registered as skipped, its title saying why, so
 * its tests count as pending. Its body runs either way to register tests: read corpus files in hooks and tests only.
 */
export function describeWithCorpus(title: string, fn: (this: Mocha.Suite) => void): Mocha.Suite {
  if (CORPUS_AVAILABLE) {
    const suite = describe(title, fn);
    corpusSuites().ran.push(suite);
    return suite;
  }
  // Skipped on purpose, not hidden: the real documents are not in the repository (a lone clone has none), so these
  // suites show as pending with the reason in their title and in the end-of-run line. CI sets DOC_CHAT_CORPUS, so
  // there they run. Typed `Suite | void` for the exclusive variants; a skipped describe returns its suite.
  const suite = describe.skip(`${title} (skipped: ${CORPUS_MISSING})`, fn) as Mocha.Suite;
  corpusSuites().skipped.push(suite);
  return suite;
}

/** The end-of-run line: how many corpus tests ran or were skipped, and why. */
export function corpusSummary(): string | undefined {
  const { ran, skipped } = corpusSuites();
  const count = (suites: Mocha.Suite[]) => suites.reduce((n, suite) => n + suite.total(), 0);
  if (skipped.length > 0) return `${plural(count(skipped), 'corpus test')} in ${plural(skipped.length, 'suite')} skipped: ${CORPUS_MISSING}`;
  if (ran.length > 0) return `${plural(count(ran), 'corpus test')} in ${plural(ran.length, 'suite')} ran against the corpus at ${CORPUS_DIR}`;
  return undefined;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
