/**
 * Formulas over statement lines, as questions write them ("365 * (average accounts payable between FY2016 and FY2017)
 * / (FY2017 COGS + change in inventory between FY2016 and FY2017)", "total current assets divided by total current
 * liabilities"): parsed into an expression whose leaves are numbers and (line item, fiscal year) pairs, evaluated once
 * the pairs' values are looked up. What a phrase between the operators means is the caller's (PhraseResolver).
 */
import type { LineItem } from './financial-line-items.js';

export type Expr =
  | { kind: 'number'; value: number }
  | { kind: 'item'; item: LineItem; year: number }
  | { kind: 'op'; op: '+' | '-' | '*' | '/'; left: Expr; right: Expr }
  | { kind: 'mean'; terms: Expr[] };

/** The expression a phrase stands for in the given fiscal year, or undefined when it names nothing known. */
export type PhraseResolver = (phrase: string, year: number) => Expr | undefined;

const OPERATOR_WORDS: [RegExp, string][] = [
  [/\s+divided by\s+/gi, ' / '],
  [/\s+(multiplied by|times)\s+/gi, ' * '],
  [/\s+plus\s+/gi, ' + '],
  [/\s+(minus|less)\s+/gi, ' − '],
  // A dash between spaces is a minus; inside a word ("long-term", "FY2015-FY2017") it is not.
  [/\s+[-–]\s+/g, ' − '],
  [/×/g, ' * '],
  [/÷/g, ' / '],
];

type Token = '(' | ')' | '+' | '−' | '*' | '/' | { number: number } | { phrase: string };

function tokenize(text: string): Token[] {
  let spaced = text;
  for (const [pattern, op] of OPERATOR_WORDS) spaced = spaced.replace(pattern, op);
  const tokens: Token[] = [];
  for (const part of spaced.split(/([()+−*/])/)) {
    if (['(', ')', '+', '−', '*', '/'].includes(part)) tokens.push(part as Token);
    else if (part.trim() === '') continue;
    else if (/^\s*\d[\d,]*(\.\d+)?\s*$/.test(part)) tokens.push({ number: Number(part.trim().replace(/,/g, '')) });
    else tokens.push({ phrase: part.trim().replace(/\s+/g, ' ') });
  }
  return tokens;
}

/** The expression the formula text describes, or undefined when it does not parse or a phrase names nothing known. */
export function parseFormula(text: string, year: number, resolve: PhraseResolver): Expr | undefined {
  const tokens = tokenize(text.replace(/[.;:]\s*$/, ''));
  if (tokens.length === 0) return undefined;
  let at = 0;
  const peek = () => tokens[at];
  const sum = (): Expr | undefined => {
    let left = product();
    while (left && (peek() === '+' || peek() === '−')) {
      const op = tokens[at++] === '+' ? '+' : '-';
      const right = product();
      left = right && { kind: 'op', op, left, right };
    }
    return left;
  };
  const product = (): Expr | undefined => {
    let left = primary();
    while (left && (peek() === '*' || peek() === '/')) {
      const op = tokens[at++] as '*' | '/';
      const right = primary();
      left = right && { kind: 'op', op, left, right };
    }
    return left;
  };
  const primary = (): Expr | undefined => {
    const token = tokens[at++];
    if (token === '(') {
      const inner = sum();
      return tokens[at++] === ')' ? inner : undefined;
    }
    if (token === '−') {
      const inner = primary();
      return inner && { kind: 'op', op: '*', left: { kind: 'number', value: -1 }, right: inner };
    }
    if (token && typeof token === 'object') return 'number' in token ? { kind: 'number', value: token.number } : resolve(token.phrase, year);
    return undefined;
  };
  const expr = sum();
  return at === tokens.length ? expr : undefined;
}

/** Every (line item, year) the expression needs, once each. */
export function itemsOf(expr: Expr): { item: LineItem; year: number }[] {
  const out = new Map<string, { item: LineItem; year: number }>();
  const walk = (e: Expr): void => {
    if (e.kind === 'item') out.set(`${e.item.key}@${e.year}`, { item: e.item, year: e.year });
    else if (e.kind === 'op') walk(e.left), walk(e.right);
    else if (e.kind === 'mean') e.terms.forEach(walk);
  };
  walk(expr);
  return [...out.values()];
}

/** The value, given each item's value for its year; undefined when one is missing or a divisor is zero. */
export function evaluate(expr: Expr, valueOf: (item: LineItem, year: number) => number | undefined): number | undefined {
  switch (expr.kind) {
    case 'number':
      return expr.value;
    case 'item':
      return valueOf(expr.item, expr.year);
    case 'mean': {
      const values = expr.terms.map((t) => evaluate(t, valueOf));
      return values.some((v) => v === undefined) ? undefined : (values as number[]).reduce((a, b) => a + b, 0) / values.length;
    }
    case 'op': {
      const left = evaluate(expr.left, valueOf);
      const right = evaluate(expr.right, valueOf);
      if (left === undefined || right === undefined) return undefined;
      if (expr.op === '/') return right === 0 ? undefined : left / right;
      return expr.op === '+' ? left + right : expr.op === '-' ? left - right : left * right;
    }
  }
}

/** An amount of money (sums and differences of lines) rather than a ratio, a share or a number of days. */
export function isAmount(expr: Expr): boolean {
  if (expr.kind === 'item') return true;
  if (expr.kind === 'mean') return expr.terms.every(isAmount);
  if (expr.kind === 'op') return (expr.op === '+' || expr.op === '-') && (isAmount(expr.left) || isAmount(expr.right));
  return false;
}

/** Whether the formula multiplies by 100 itself (a percentage written out). */
export function scalesToPercent(expr: Expr): boolean {
  if (expr.kind === 'op') return (expr.op === '*' && [expr.left, expr.right].some((e) => e.kind === 'number' && e.value === 100)) || scalesToPercent(expr.left) || scalesToPercent(expr.right);
  return false;
}

/** The formula in words, for the answer: "365 × average(accounts payable FY2016, FY2017) ÷ …". */
export function describe(expr: Expr, top = true): string {
  switch (expr.kind) {
    case 'number':
      return String(expr.value);
    case 'item':
      return `${expr.item.name} FY${expr.year}`;
    case 'mean': {
      const items = expr.terms.every((t) => t.kind === 'item' && t.item.key === (expr.terms[0] as { item: LineItem }).item.key);
      if (items) return `average ${(expr.terms[0] as { item: LineItem }).item.name} (${expr.terms.map((t) => `FY${(t as { year: number }).year}`).join(', ')})`;
      return `average of (${expr.terms.map((t) => describe(t)).join('; ')})`;
    }
    case 'op': {
      const symbol = { '+': '+', '-': '−', '*': '×', '/': '÷' }[expr.op];
      const text = `${describe(expr.left, false)} ${symbol} ${describe(expr.right, false)}`;
      return top ? text : `(${text})`;
    }
  }
}
