import type { PageFeatures } from './page-features.js';

/**
 * The kinds of document told apart at ingestion. A plug-in (adapters/answer-plugins) declares the kinds it serves;
 * 'other' is any document none of the scores below claims.
 */
export const DOCUMENT_KINDS = ['receipt', 'financial-report', 'form', 'letter', 'other'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** Below this score no kind is claimed: the document is 'other'. */
export const MIN_KIND_SCORE = 0.6;

export interface KindVerdict {
  kind: DocumentKind;
  /** Each kind's score, 0..1. */
  scores: Record<Exclude<DocumentKind, 'other'>, number>;
  /** What the chosen kind's score rests on, in words (for logs and tests). */
  reasons: string[];
}

interface Evidence {
  weight: number;
  /** 0..1: how far the document shows it. */
  strength: number;
  reason: string;
}

/**
 * The kind of a document from its pages' features: a weighted sum of evidence per kind (each 0..1, weights summing
 * to 1), the highest at or above MIN_KIND_SCORE wins. Hand-set weights, not fitted: each feature is one a reader
 * would point at ("a column of prices with a total line, on one short page" is a receipt), and the unit tests hold
 * the verdicts on the corpus's real documents.
 */
export function classifyFeatures(f: PageFeatures): KindVerdict {
  const evidence: Record<Exclude<DocumentKind, 'other'>, Evidence[]> = {
    receipt: withoutSentences(f, receiptEvidence(f)),
    'financial-report': reportEvidence(f),
    form: formEvidence(f),
    letter: letterEvidence(f),
  };
  const scores = Object.fromEntries(Object.entries(evidence).map(([kind, list]) => [kind, round(score(list))])) as KindVerdict['scores'];
  const ranked = (Object.entries(scores) as [Exclude<DocumentKind, 'other'>, number][]).sort((a, b) => b[1] - a[1]);
  // A filing's cover has check boxes (an 8-K's): a document that scores as a report too is a report with a cover.
  const [best, top] = ranked[0][0] === 'form' && scores['financial-report'] >= MIN_KIND_SCORE ? ranked.find(([k]) => k === 'financial-report')! : ranked[0];
  if (top < MIN_KIND_SCORE) return { kind: 'other', scores, reasons: [`no kind scores ${MIN_KIND_SCORE} or more (best: ${best} ${top})`] };
  return { kind: best, scores, reasons: evidence[best].filter((e) => e.strength > 0).map((e) => e.reason) };
}

function receiptEvidence(f: PageFeatures): Evidence[] {
  // A till receipt is a page or two of short lines, many ending in a price, with a total (or change, VAT) line.
  if (f.pages > 3 || f.chars > 8000 || f.lines === 0) return [];
  const amounts = f.amountLines / f.lines;
  return [
    { weight: 0.3, strength: clamp(amounts / 0.25), reason: `${percent(amounts)} of lines end in a price` },
    { weight: 0.2, strength: clamp(f.tallyLines / 2), reason: `${f.tallyLines} total, change or tax lines` },
    { weight: 0.15, strength: clamp(f.tillMarks / 3), reason: `${f.tillMarks} marks of a till (receipt number, change, card payment)` },
    { weight: 0.15, strength: clamp((f.shortLines / f.lines - 0.5) / 0.4), reason: `${percent(f.shortLines / f.lines)} of lines are short` },
    { weight: 0.1, strength: f.pages <= 2 ? 1 : 0, reason: `${f.pages} page(s)` },
    // A report's table prints a row's figure for each period; a receipt one price a line, and no header of years.
    { weight: 0.1, strength: f.yearHeaders > 0 ? 0 : 1 - clamp(f.figureRows / Math.max(1, f.amountLines)), reason: 'one price a line, no columns of periods' },
  ];
}

/**
 * A contract or a letter that lists a few amounts and a total is written in sentences; a till roll is not (bar a
 * printed notice at its foot): from 15 % of its lines on, sentences take the receipt's score down, to nothing at 45 %.
 */
function withoutSentences(f: PageFeatures, evidence: Evidence[]): Evidence[] {
  const share = f.lines > 0 ? f.proseLines / f.lines : 0;
  const keep = 1 - clamp((share - 0.15) / 0.3);
  if (keep === 1) return evidence;
  return [...evidence.map((e) => ({ ...e, weight: e.weight * keep })), { weight: 0, strength: 1, reason: `${percent(share)} of lines are sentences` }];
}

function reportEvidence(f: PageFeatures): Evidence[] {
  // Statement tables: a header of years over rows of figures, and the statements' vocabulary; a filing has many pages.
  if (f.lines === 0) return [];
  const perPage = (n: number) => n / Math.max(1, f.pages);
  return [
    { weight: 0.3, strength: clamp(perPage(f.yearHeaders) / 0.3), reason: `${f.yearHeaders} table headers of years` },
    { weight: 0.3, strength: clamp(f.figureRows / f.lines / 0.15), reason: `${percent(f.figureRows / f.lines)} of lines are rows of figures` },
    { weight: 0.3, strength: clamp((f.statementTerms / Math.max(1, f.words)) * 1000 / 8), reason: `${f.statementTerms} words of financial statements` },
    { weight: 0.1, strength: clamp(f.pages / 20), reason: `${f.pages} page(s)` },
    // A current report (an 8-K) may be all prose, yet it is a company's filing: its cover says so.
    { weight: f.filingCovers > 0 ? 0.6 : 0, strength: 1, reason: 'an SEC filing’s cover' },
  ];
}

function formEvidence(f: PageFeatures): Evidence[] {
  // Forms and their instructions: boxes and blanks to fill, numbered lines and steps, "attach", "enter", "line 12".
  if (f.lines === 0) return [];
  return [
    { weight: 0.7, strength: clamp(f.formMarks / f.lines / 0.08), reason: `${f.formMarks} boxes, blanks, numbered steps or instructions` },
    { weight: 0.3, strength: clamp(f.formMarks / 20), reason: `${f.formMarks} in all` },
  ];
}

function letterEvidence(f: PageFeatures): Evidence[] {
  // A letter opens with a salutation and ends with a closing, on a page or a few.
  if (f.pages > 6) return [];
  return [
    { weight: 0.45, strength: f.salutations > 0 ? 1 : 0, reason: 'a salutation' },
    { weight: 0.4, strength: f.closings > 0 ? 1 : 0, reason: 'a closing' },
    { weight: 0.15, strength: f.pages <= 3 ? 1 : 0, reason: `${f.pages} page(s)` },
  ];
}

function score(evidence: Evidence[]): number {
  return Math.min(1, evidence.reduce((sum, e) => sum + e.weight * e.strength, 0));
}

const clamp = (x: number) => Math.max(0, Math.min(1, Number.isFinite(x) ? x : 0));
const round = (x: number) => Math.round(x * 100) / 100;
const percent = (x: number) => `${Math.round(x * 100)} %`;
