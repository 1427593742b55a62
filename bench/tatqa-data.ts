/**
 * TAT-QA's dev set (Zhu et al., ACL 2021; CC BY 4.0) in ../shared/data/tatqa: 278 contexts from real annual reports,
 * each one table with the paragraphs printed around it and 4-8 questions. Read here, never copied into the repo.
 *
 * Split BY CONTEXT, so no table or paragraph of the validation part is seen while developing on the other: a context
 * goes to `validation` when the first byte of sha256("tatqa-split:" + its table uid) is odd, else to `dev`. The rule
 * depends on nothing but the uid (not on file order, not on which other contexts exist), so it cannot drift.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { corpusPath } from '../test/support/paths.js';

export const TATQA_FILE = corpusPath('tatqa/tatqa-dev.json');

export type TatqaAnswerType = 'span' | 'multi-span' | 'arithmetic' | 'count';
export const TATQA_ANSWER_TYPES: readonly TatqaAnswerType[] = ['span', 'multi-span', 'arithmetic', 'count'];

export interface TatqaQuestion {
  uid: string;
  order: number;
  question: string;
  /** span and multi-span: the spans; arithmetic: a number; count: a number as a string ("4"). */
  answer: string[] | number | string;
  derivation: string;
  answer_type: TatqaAnswerType;
  answer_from: 'table' | 'text' | 'table-text';
  /** '', thousand, million, billion or percent: the unit the answer is in. */
  scale: string;
}

export interface TatqaContext {
  table: { uid: string; table: string[][] };
  paragraphs: { uid: string; order: number; text: string }[];
  questions: TatqaQuestion[];
}

/** `dev`: developed on, questions may be read. `validation`: measured only, as figures (bench/tatqa.ts enforces it). */
export type TatqaPart = 'dev' | 'validation';
export const TATQA_PARTS: readonly TatqaPart[] = ['dev', 'validation'];

export function readTatqa(file = TATQA_FILE): TatqaContext[] {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as TatqaContext[];
}

/** Which part a context belongs to, from its table uid alone. */
export function tatqaPartOf(uid: string): TatqaPart {
  const first = crypto.createHash('sha256').update(`tatqa-split:${uid}`).digest()[0];
  return first % 2 === 1 ? 'validation' : 'dev';
}

/** The contexts of one part, in file order. */
export function tatqaPart(part: TatqaPart, contexts: TatqaContext[] = readTatqa()): TatqaContext[] {
  return contexts.filter((c) => tatqaPartOf(c.table.uid) === part);
}
