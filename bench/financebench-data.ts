/**
 * The FinanceBench development set in ../shared/data/financebench (CC BY-NC 4.0: read for evaluation only, never
 * copied into the repo) and how it is split. The split is by company, so no filing of a held-out company (nor an
 * other year of it) was looked at while tuning: the 20 companies sorted by name, shuffled with seed 2026
 * (metrics.seededRandom), then dealt alternately to the two parts. It was fixed before any measurement and is data here,
 * so it cannot drift.
 */
import fs from 'node:fs';
import path from 'node:path';
import { corpusPath } from '../test/support/paths.js';

export const FINANCEBENCH_DIR = corpusPath('financebench');

export const FINANCEBENCH_SPLIT = {
  /** Looked at while changing chunking, retrieval and the answerer. */
  tune: ['3M', 'Amazon', 'Best Buy', 'Block', 'CVS Health', 'Costco', 'Johnson & Johnson', 'Microsoft', 'Netflix', 'PepsiCo'],
  /** Only measured (before and after), never looked into: the reported figures. */
  heldout: ['Activision Blizzard', 'Adobe', 'Amcor', 'Boeing', 'Corning', 'Foot Locker', 'General Mills', 'MGM Resorts', 'Nike', 'Verizon'],
} as const;

export type FinancePart = keyof typeof FINANCEBENCH_SPLIT;

export interface FinanceQuestion {
  id: string;
  company: string;
  doc: string;
  question_type: 'metrics-generated' | 'domain-relevant' | 'novel-generated';
  question: string;
  answer: string;
  evidence: { page: number; text: string }[];
}

export function readFinanceQuestions(part: FinancePart): FinanceQuestion[] {
  const companies = new Set<string>(FINANCEBENCH_SPLIT[part]);
  return fs
    .readFileSync(path.join(FINANCEBENCH_DIR, 'questions.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as FinanceQuestion)
    .filter((q) => companies.has(q.company));
}

export function filingPath(doc: string): string {
  return path.join(FINANCEBENCH_DIR, 'pdfs', doc);
}
