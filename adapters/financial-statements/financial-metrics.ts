/**
 * Figures a question asks to compute rather than read ("FY2017 days payable outstanding", "FY2015 - FY2017 3 year
 * average net profit margin", "year-over-year change in revenue from FY2016 to FY2017"): the formula, from the
 * question's own definition when it gives one ("DPO is defined as: …", "Define working capital ratio as …"), else from
 * the textbook definition of the metric it names (METRICS). Retrieval fetches each line item's rows
 * (lineItemQueries) and the extractive answerer computes the figure from them (adapters/extractive/computed-figure.ts).
 * A question that asks for no known metric, or names no fiscal year, is no computed-figure question.
 */
import type { ChunkHit, PinnedSearch } from '../../core/index.js';
import { describe, isAmount, itemsOf, parseFormula, scalesToPercent, type Expr, type PhraseResolver } from './financial-formula.js';
import { lineItemFor, type LineItem } from './financial-line-items.js';
import { rewriteFiscalYears } from './fiscal-years.js';
import { lookUp, statementRows } from './statement-lookup.js';
import { METRICS, type Metric } from './metric-library.js';
import { titleOf, type AmountUnit } from './statements.js';

export type { AmountUnit };

export interface FigureRequest {
  /** What the figure is, for the answer ("days payable outstanding"). */
  metric: string;
  expr: Expr;
  /** The formula in words. */
  formula: string;
  /** Multiply by 100 and show "%". */
  percent: boolean;
  /** Decimal places asked for; undefined: two for ratios, the table's own precision for amounts. */
  decimals?: number;
  /** An amount of money (sums and differences of lines), stated in `unit` when the question asks for one. */
  amount: boolean;
  unit?: AmountUnit;
}

/** The question with fiscal years as "fy2017", lower case, possessives and punctuation other than formula signs gone. */
function normalize(text: string): string {
  return rewriteFiscalYears(text.toLowerCase().replace(/[’']s\b/g, 's'), (year) => `fy${year}`)
    .replace(/(?<!fy)\b((?:19|20)\d\d)\b/g, 'fy$1')
    .replace(/[^a-z0-9&%().*/+−–-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The fiscal years of a normalised question ("fy2017"). */
const fiscalYearsOf = (q: string) => [...q.matchAll(/\bfy(\d{4})\b/g)].map((m) => Number(m[1]));
const range = (from: number, to: number) => Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => Math.min(from, to) + i);
const mean = (terms: (Expr | undefined)[]): Expr | undefined => (terms.every(Boolean) ? { kind: 'mean', terms: terms as Expr[] } : undefined);
const minus = (a: Expr | undefined, b: Expr | undefined): Expr | undefined => (a && b ? { kind: 'op', op: '-', left: a, right: b } : undefined);

/**
 * What a phrase of a formula stands for: an average or a change over years, a line item in a given year, a metric the
 * question defines or the library knows, or a line item. `free` lets a question's own formula name lines the
 * vocabulary does not know.
 */
function resolver(definitions: Map<string, string>, free: boolean): PhraseResolver {
  const expanding = new Set<string>();
  const resolve: PhraseResolver = (phrase, year) => {
    const p = normalize(phrase).replace(/^(the|an?|and) /, '').replace(/[()]/g, '').trim();
    let m: RegExpExecArray | null;
    if ((m = /^average (?:of )?(.+?) (?:between|from|for|over|in|during) fy(\d{4}) (?:and|to|through|-|–) fy(\d{4})$/.exec(p))) {
      return mean(range(Number(m[2]), Number(m[3])).map((y) => resolve(m![1], y)));
    }
    if ((m = /^average (?:of )?(.+)$/.exec(p))) return mean([resolve(m[1], year - 1), resolve(m[1], year)]);
    if ((m = /^(?:change|increase|decrease) in (.+?) (?:between|from) fy(\d{4}) (?:and|to) fy(\d{4})$/.exec(p))) {
      return minus(resolve(m[1], Number(m[3])), resolve(m[1], Number(m[2])));
    }
    if ((m = /^(?:change|increase|decrease) in (.+)$/.exec(p))) return minus(resolve(m[1], year), resolve(m[1], year - 1));
    if ((m = /^(?:year end |end of )?fy(\d{4}) (?:year end )?(.+)$/.exec(p))) return resolve(m[2], Number(m[1]));
    if ((m = /^(.+?) (?:in |for |of |at |as of )?(?:the )?(?:year end |end of )?fy(\d{4})$/.exec(p))) return resolve(m[1], Number(m[2]));
    const formula = definitions.get(p) ?? METRICS.find((metric) => new RegExp(`^(${metric.pattern.source})$`).test(p))?.formula;
    if (formula !== undefined) {
      if (expanding.has(p)) return undefined;
      expanding.add(p);
      const expr = parseFormula(formula, year, resolve);
      expanding.delete(p);
      return expr;
    }
    const item = lineItemFor(p, free);
    return item && { kind: 'item', item, year };
  };
  return resolve;
}

/** Definitions the question gives: "DPO is defined as: …", "Define working capital ratio as …" (name → formula). */
function definitionsIn(question: string): { name: string; formula: string }[] {
  const out: { name: string; formula: string }[] = [];
  for (const sentence of question.split(/(?<=[.?!])\s+(?=[A-Z(])/)) {
    const defined = /^(.*?)\s+(?:is|are|can be|should be)\s+(?:defined|calculated|computed)\s+as:?\s+(.+?)\.?$/i.exec(sentence);
    const define = /^define\s+(?:the\s+)?(.+?)\s+as:?\s+(.+?)\.?$/i.exec(sentence);
    const [, rawName, formula] = defined ?? define ?? [];
    if (!rawName || !formula) continue;
    const name = normalize(rawName.split(/[,:;]/).at(-1)!).replace(/[()]/g, '').replace(/^(the|where|here|and|while) /, '').split(' ').slice(-8).join(' ');
    out.push({ name, formula });
  }
  return out;
}

/** Tries the phrase's trailing words, longest first ("what is amazons fy2018 capex" → "fy2018 capex"). */
function resolveTail(phrase: string, year: number, resolve: PhraseResolver): Expr | undefined {
  const words = phrase.split(' ');
  for (let n = Math.min(8, words.length); n >= 1; n--) {
    const expr = resolve(words.slice(-n).join(' '), year);
    if (expr) return expr;
  }
  return undefined;
}

/** The metric the question names (the longest match: "ebitda margin" over "ebitda"). */
function namedMetric(q: string): Metric | undefined {
  let best: { metric: Metric; length: number } | undefined;
  for (const metric of METRICS) {
    const m = metric.pattern.exec(q);
    if (m && (!best || m[0].length > best.length)) best = { metric, length: m[0].length };
  }
  return best?.metric;
}

/** The formula, name and whether it is a percentage by convention; undefined when the question asks for nothing computed. */
function formulaOf(question: string, q: string, year: number): { metric: string; expr?: Expr; percent: boolean } | undefined {
  const definitions = definitionsIn(question);
  if (definitions.length > 0) {
    const resolve = resolver(new Map(definitions.map((d) => [d.name, d.formula])), true);
    const head = normalize(question.split(/(?<=[.?!])\s+(?=[A-Z(])/)[0]);
    const main = definitions.find((d) => head.includes(d.name)) ?? definitions[0];
    // An abbreviation ("dpo") is shown as one ("DPO").
    return { metric: /^[a-z&]{2,5}$/.test(main.name) ? main.name.toUpperCase() : main.name, expr: parseFormula(main.formula, year, resolve), percent: false };
  }
  const resolve = resolver(new Map(), false);
  const change = /\b(?:change|growth|increase|decrease)(?: rate)? in (?:the )?(.+?) (?:from|between) fy(\d{4}) (?:to|and) fy(\d{4})/.exec(q)
    ?? /\b(?:year over year|yoy|annual) (?:change|growth)(?: rate)? (?:of|in) (?:the )?(.+?) (?:from|between) fy(\d{4}) (?:to|and) fy(\d{4})/.exec(q);
  if (change) {
    const [from, to] = [Number(change[2]), Number(change[3])];
    const a = resolveTail(change[1], from, resolve);
    const b = resolveTail(change[1], to, resolve);
    const difference = minus(b, a);
    const relative = /%|percent|growth|rate/.test(q);
    return { metric: `change in ${change[1]} from FY${from} to FY${to}`, expr: relative && difference && a ? { kind: 'op', op: '/', left: difference, right: a } : difference, percent: relative };
  }
  const base = yearlyMetric(q, resolve);
  if (!base) return undefined;
  const span = /fy(\d{4}) ?(?:-|–|to|through|and) ?fy(\d{4})/.exec(q);
  if (span && /\baverage\b/.test(q)) {
    const years = range(Number(span[1]), Number(span[2]));
    return { metric: `${years.length}-year average ${base.name}`, expr: mean(years.map((y) => base.expr(y))), percent: base.percent };
  }
  return { metric: base.name, expr: base.expr(year), percent: base.percent };
}

/** The metric the question names, as a formula of the year: a library metric, or one line as a share of another. */
function yearlyMetric(q: string, resolve: PhraseResolver): { name: string; expr: (year: number) => Expr | undefined; percent: boolean } | undefined {
  const share = /(.+?) as (?:a )?(?:%|percent(?:age)?) of (?:total )?(.+?)(?: for| in| during|\?|$)/.exec(q);
  if (share) {
    // "3 year average of capex as a % of revenue": the average is over years, not of the opening and closing balance.
    const partText = share[1].replace(/^.*\baverage (of )?/, '');
    const wholeText = share[2].split(' ').slice(0, 6).join(' ');
    const sample = [resolveTail(partText, 2000, resolve), resolveTail(wholeText, 2000, resolve)];
    if (!sample[0] || !sample[1]) return undefined;
    const name = (e: Expr) => (e.kind === 'item' ? e.item.name : describe(e));
    return {
      name: `${name(sample[0])} as a percentage of ${name(sample[1])}`,
      expr: (year) => {
        const [part, whole] = [resolveTail(partText, year, resolve), resolveTail(wholeText, year, resolve)];
        return part && whole && { kind: 'op', op: '/', left: part, right: whole };
      },
      percent: true,
    };
  }
  const metric = namedMetric(q);
  return metric && { name: metric.name, expr: (year) => parseFormula(metric.formula, year, resolve), percent: metric.percent };
}

/** Words that may stand between "what is" and the line it asks for ("what is the year end FY2019 total amount of …"). */
const FILLER = /^(the|year|end|total|amount|of|fy\d{4}|as|at|for|in)$/;

/**
 * A single statement line asked for by name in a fiscal year ("What is the FY2016 COGS for Acme?", "how much total
 * assets did Acme have at the end of FY2021?"): nothing to compute, but its row is searched for like a computation's
 * lines, and the table-row answer (adapters/extractive/table-rows.ts) quotes it. Only when the question asks
 * for the figure itself: between "what is" / "how much" and the line only filler words and at most three capitalised
 * ones (a company's name), so "what is the main driver of revenue" is no figure question.
 */
function namedLine(question: string, q: string, year: number): Expr | undefined {
  const names = new Set(question.split(/\s+/).slice(1).filter((w) => /^[\p{Lu}\d]/u.test(w)).flatMap((w) => normalize(w).split(' ')));
  const ask = /\b(what (?:is|was|were|are)|how much)\b/.exec(q);
  if (!ask) return undefined;
  const words = q.slice(ask.index + ask[0].length).replace(/[^a-z0-9& ]/g, ' ').split(' ').filter(Boolean);
  for (let start = 0; start < words.length; start++) {
    const others = words.slice(0, start).filter((w) => !FILLER.test(w));
    if (others.length > 3 || others.some((w) => !names.has(w))) return undefined;
    for (let n = Math.min(8, words.length - start); n >= 1; n--) {
      const item = lineItemFor(words.slice(start, start + n).join(' '));
      if (item) return { kind: 'item', item, year };
    }
  }
  return undefined;
}

/** The single line a figure question reads (namedLine), for retrieval: the table-row answer quotes it. */
function namedLineOf(question: string): Expr | undefined {
  const q = normalize(question);
  const years = fiscalYearsOf(q);
  return years.length > 0 ? namedLine(question, q, Math.max(...years)) : undefined;
}

const DECIMAL_WORDS: Record<string, number> = { zero: 0, no: 0, one: 1, two: 2, three: 3, four: 4, '0': 0, '1': 1, '2': 2, '3': 3, '4': 4 };

/**
 * The computation a question asks for, or undefined when it asks for none (no fiscal year, no known metric, no
 * formula of its own, or one that names a line the vocabulary cannot find). A single line read as printed is not a
 * computation: the table-row answer handles it.
 */
export function computedFigureRequest(question: string): FigureRequest | undefined {
  const q = normalize(question);
  const years = fiscalYearsOf(q);
  if (years.length === 0) return undefined;
  const found = formulaOf(question, q, Math.max(...years));
  if (!found?.expr || found.expr.kind === 'item' || itemsOf(found.expr).length === 0) return undefined;
  const amount = isAmount(found.expr);
  const definitionsCut = question.replace(/(is|are) (defined|calculated|computed) as[\s\S]*?(\.\s|$)|define [\s\S]*?(\.\s|$)/gi, ' ');
  const asksPercent = /%|\bpercent/i.test(definitionsCut);
  const decimals = /\bround(?:ed)?\b[^.?]*?\bto (?:the nearest )?(\w+) decimal/i.exec(question)?.[1].toLowerCase();
  const whole = /\b(nearest (whole number|integer|dollar))\b/i.test(question);
  const unit = /\b(?:in|usd|us\$|\$)\s*(?:usd|us\$|\$)?\s*(thousands|millions|billions)\b/i.exec(question)?.[1].toLowerCase() as AmountUnit | undefined;
  return {
    metric: found.metric,
    expr: found.expr,
    formula: describe(found.expr),
    percent: !amount && !scalesToPercent(found.expr) && (found.percent || asksPercent),
    decimals: whole ? 0 : decimals !== undefined ? DECIMAL_WORDS[decimals] : undefined,
    amount,
    unit: amount ? unit : undefined,
  };
}

/** Hits read per line item: the statement row is often below notes that discuss the item. */
const ITEM_CANDIDATES = 50;

/**
 * One search per line item a computed figure needs, so each item's rows are among the passages even when the
 * question's own words find only one of them. A lexical index ranks a note that discusses "cost of sales" above the
 * statement row printing it, so only hits holding the row itself count.
 */
export function lineItemSearches(question: string): PinnedSearch[] {
  const expr = computedFigureRequest(question)?.expr ?? namedLineOf(question);
  if (!expr) return [];
  const byItem = new Map<string, { item: LineItem; years: Set<number> }>();
  for (const { item, year } of itemsOf(expr)) {
    const entry = byItem.get(item.key) ?? { item, years: new Set<number>() };
    entry.years.add(year);
    byItem.set(item.key, entry);
  }
  return [...byItem.values()].map(({ item, years }) => ({
    text: [item.query, ...[...years].sort(), item.statement ? titleOf(item.statement) : ''].join(' ').trim(),
    limit: ITEM_CANDIDATES,
    holding: (hits: ChunkHit[]) => {
      const holding = hits.filter((hit) => {
        const rows = statementRows([hit.chunk]);
        return [...years].every((year) => lookUp(rows, item, year) !== undefined);
      });
      // The hit whose row the lookup prefers over the others' (the statement's own line over a note's) comes first.
      const best = lookUp(statementRows(holding.slice(0, 10).map((h) => h.chunk)), item, Math.max(...years))?.row.passage;
      return best ? [...holding.filter((h) => h.chunk === best), ...holding.filter((h) => h.chunk !== best)] : holding;
    },
  }));
}
