/**
 * Whether an answer carries a gold figure (FinanceBench "figure questions"). Numbers are compared as values, so the
 * way a filing prints them does not matter:
 * - thousands separators and currency signs go ("$ 1,577" is 1577), a trailing % is dropped ("30.8%" is 30.8);
 * - parentheses and a leading minus mean negative, but the sign is ignored when comparing: statements print outflows
 *   as "(1,577)" where the question asks for "capital expenditure of $1577";
 * - a unit word after a number scales it (thousand/k, million/mn/m, billion/bn/b), and tables in thousands or millions
 *   print the same amount 1000 times larger or smaller, so factors of 1000 (up to 10^6) between answer and gold match;
 * - an answer number matches when the gold, rounded to the answer's own decimals, equals it ("1,577" for "$1577.00",
 *   "55.1" for "55.1%"), and it has at least three significant digits or equals the gold exactly (so "55" does not
 *   count for 55.1, nor "2" for 2.2).
 * Years (1900–2099 without decimals or separators) in the answer are skipped: they head every column.
 */

const NUMBER = /(\()?(-)?\$?\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\)?\s*(%|thousand|k\b|million|mn\b|m\b|billion|bn\b|b\b)?/gi;

const UNIT: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, mn: 1e6, m: 1e6, billion: 1e9, bn: 1e9, b: 1e9 };

export interface Figure {
  value: number;
  decimals: number;
  significant: number;
  isYear: boolean;
}

export function figuresIn(text: string): Figure[] {
  const out: Figure[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const [, open, minus, whole, fraction = '', unit] = m;
    const digits = whole.replace(/,/g, '') + fraction.slice(1);
    let value = Number(whole.replace(/,/g, '') + fraction);
    if (open || minus) value = -value;
    const scale = unit ? UNIT[unit.toLowerCase()] ?? 1 : 1;
    out.push({
      value: value * scale,
      decimals: fraction.length > 0 ? fraction.length - 1 : 0,
      significant: digits.replace(/^0+/, '').length,
      isYear: !fraction && !whole.includes(',') && /^(19|20)\d\d$/.test(whole) && !unit,
    });
  }
  return out;
}

/** The gold answer's figure: its first number ("$1577.00", "30.8%", "-3.7"), or undefined when it has none. */
export function goldFigure(answer: string): number | undefined {
  const first = figuresIn(answer)[0];
  return first?.value;
}

export function carriesFigure(answer: string, gold: number): boolean {
  const target = Math.abs(gold);
  return figuresIn(answer).some((f) => {
    if (f.isYear) return false;
    const value = Math.abs(f.value);
    for (const factor of [1, 1e3, 1e-3, 1e6, 1e-6]) {
      const g = target * factor;
      const rounded = Number(g.toFixed(f.decimals));
      const exact = Math.abs(value - g) < 1e-9 * Math.max(1, g);
      if (exact || (Math.abs(value - rounded) < 1e-9 * Math.max(1, g) && f.significant >= 3)) return true;
    }
    return false;
  });
}

/**
 * A figure question: FinanceBench's "metrics-generated" type (figures from the statements), or any question whose
 * gold answer is just a number.
 */
export function isFigureQuestion(q: { question_type: string; answer: string }): boolean {
  return q.question_type === 'metrics-generated' || /^\s*\(?-?\$?\s?[\d,]+(\.\d+)?\)?\s*%?\s*$/.test(q.answer);
}
