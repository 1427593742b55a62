/**
 * The three financial statements: how questions name them, how filings title them, and the headings that open them
 * (the one table of statement names; standard US GAAP titles, nothing about any one filing).
 */
export type Statement = 'balance' | 'income' | 'cash';

/** The unit a statement's amounts are printed in ("in millions"). */
export type AmountUnit = 'thousands' | 'millions' | 'billions';

export interface StatementNames {
  statement: Statement;
  /** How a question names it (on the lower-cased question). */
  asked: RegExp;
  /** A heading of the statement itself, in a filing. */
  heading: RegExp;
  /** The title filings give it, as search words. */
  title: string;
  /** Other titles it goes by, as search words (for a question naming the statement). */
  otherTitles?: string;
}

export const STATEMENTS: StatementNames[] = [
  {
    statement: 'balance',
    asked: /\bbalance sheet\b|\bstatement of financial position\b/,
    heading: /\bbalance sheets?\b|\bstatements? of financial (position|condition)\b/i,
    title: 'consolidated balance sheets',
    otherTitles: 'statement of financial position',
  },
  {
    statement: 'cash',
    asked: /\bcash flow statement\b|\bstatement of cash flows?\b/,
    heading: /\bcash flows?\b/i,
    title: 'consolidated statements of cash flows',
  },
  {
    statement: 'income',
    asked: /\bincome statement\b|\bp&l\b|\bstatement of income\b/,
    heading: /\bstatements? of (consolidated )?(operations|income|earnings)\b|\bincome statements?\b|\bstatements? of comprehensive (income|earnings)\b/i,
    title: 'consolidated statements of income operations earnings',
  },
];

/** The statement a heading opens, if any. */
export function statementOf(heading: string): Statement | undefined {
  return STATEMENTS.find((s) => s.heading.test(heading))?.statement;
}

/** The search words of a statement's title. */
export function titleOf(statement: Statement): string {
  return STATEMENTS.find((s) => s.statement === statement)!.title;
}
