import { stemmer } from 'stemmer';
import { lineItemQuery } from '../../core/rag/query-terms.js';
import { contentTokens } from '../../core/rag/text.js';
import type { ContextPassage } from '../../core/ports/llm.js';

/**
 * Figure questions ("What is the FY2018 capital expenditure (in USD millions)?") are answered by a table row, which
 * the sentence ranking (fitted on prose) scores poorly: a row shares few words with the question, and those in the
 * statement's wording ("Purchases of property, plant and equipment"). Here rows are matched on the question in the
 * documents' wording (core/rag/query-terms.ts), and the chosen row is quoted with its column header, the figure of
 * the year asked for first.
 */

export interface RowCandidate {
  passage: ContextPassage;
  rank: number;
  position: number;
  kind: string;
  text: string;
}

/** A question asking for an amount, a count or a ratio rather than an explanation or a yes/no. */
export function asksForFigure(question: string): boolean {
  const q = question.toLowerCase().trim();
  if (/^(is|are|was|were|does|do|did|has|have|had|can|could|will|would|should)\b/.test(q)) return false;
  return /\bhow (much|many)\b|\bin (usd|us\$|\$)?\s*(millions|billions|thousands)\b|\b(amount|total|ratio|margin|turnover|balance)\b|\bwhat (is|was|were|are)\b.*\b(fy\s?\d{2,4}|(19|20)\d\d)\b/.test(q);
}

const stems = (text: string) => contentTokens(text).map((t) => stemmer(t));

/** The label of a row: its words before the figures. */
function rowLabel(row: string): string {
  return row.replace(/(\s+(\$|\$?\(?-?\$?\d[\d,]*(\.\d+)?\)?%?|[—–-]))+\s*$/, '');
}

/**
 * The row that best names what is asked. Words are weighted by how rare they are among the passages' lines ("total",
 * "net" head many rows; "inventories" few): the weighted share of the row's label the question asks for, plus the
 * weight of what it matches relative to the best row, plus a little for retrieval rank. Undefined when no row's label
 * is at least half (by weight) words of the question.
 */
export function bestRow<C extends RowCandidate>(candidates: C[], question: string): C | undefined {
  const asked = new Set(stems(lineItemQuery(question)));
  const df = new Map<string, number>();
  for (const c of candidates) for (const t of new Set(stems(c.text))) df.set(t, (df.get(t) ?? 0) + 1);
  const weight = (t: string) => Math.log(1 + candidates.length / (df.get(t) ?? 1));
  const sum = (terms: string[]) => terms.reduce((total, t) => total + weight(t), 0);
  const rows = candidates.flatMap((c) => {
    if (c.kind !== 'row') return [];
    const label = [...new Set(stems(rowLabel(c.text)).filter((t) => !/^\d/.test(t)))];
    const matched = label.filter((t) => asked.has(t));
    const precision = matched.length > 0 ? sum(matched) / sum(label) : 0;
    // A row the question names at most half of is another line item ("Total cost of revenue" for "revenue").
    return precision >= 0.5 ? [{ candidate: c, precision, covered: sum(matched) }] : [];
  });
  const most = Math.max(...rows.map((r) => r.covered));
  let best: { candidate: C; score: number } | undefined;
  for (const r of rows) {
    const score = r.precision + r.covered / most + 0.2 / (1 + r.candidate.rank);
    if (!best || score > best.score) best = { candidate: r.candidate, score };
  }
  return best?.candidate;
}

/** The column header (a line of years) above the row in its passage, if any. */
export function columnHeaderOf<C extends RowCandidate>(row: C, candidates: C[]): string | undefined {
  const above = candidates.filter((c) => c.passage === row.passage && c.kind === 'columns' && c.position < row.position);
  return above.at(-1)?.text;
}

/**
 * The row's figure in the column of the year the question asks for (its latest year when it names several), when the
 * header's years and the row's figures line up one to one: "2018: (1,577)".
 */
export function figureForYear(row: string, header: string | undefined, question: string): string | undefined {
  if (!header) return undefined;
  const years: string[] = header.match(/\b(19|20)\d\d\b/g) ?? [];
  const asked = [...question.matchAll(/\b(?:fy\s?'?)?((?:19|20)\d\d)\b|\bfy\s?'?(\d\d)\b/gi)].map((m) => m[1] ?? `20${m[2]}`);
  if (years.length === 0 || asked.length === 0) return undefined;
  const year = asked.map(Number).sort((a, b) => b - a)[0];
  const cells = row.slice(rowLabel(row).length).replace(/\$\s*/g, '').trim().split(/\s+/).filter(Boolean);
  const column = years.indexOf(String(year));
  if (column < 0 || cells.length !== years.length) return undefined;
  return `${year}: ${cells[column]}`;
}
