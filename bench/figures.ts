/**
 * Whether an answer carries a gold figure (FinanceBench "figure questions"). Numbers are compared as values, so the
 * way a filing prints them does not matter:
 * - thousands separators and currency signs go ("$ 1,577" is 1577), a trailing % is dropped ("30.8%" is 30.8);
 * - parentheses and a leading minus mean negative, but the sign is ignored when comparing: statements print outflows
 *   as "(1,577)" where the question asks for "capital expenditure of $1577";
 * - a unit word after a number scales it (thousand/k, million/mn/m, billion/bn/b), and tables in thousands or millions
 *   print the same amount 1000 times larger or smaller, so for amounts (a gold with $ or a unit word) factors of 1000
 *   (up to 10^6) between answer and gold match; ratios and percentages are compared unscaled;
 * - an answer number matches when it rounds to the gold at the gold's real precision (trailing zeros of "$1577.00" are
 *   formatting: "5,466,312" thousand matches "$5466.00" million, "8,738" million matches "$8.70" billion), or when the
 *   gold rounded to the answer's decimals equals it and it has at least three significant digits (so "55" does not
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

export function carriesFigure(answer: string, gold: string | number): boolean {
  const g = typeof gold === 'number' ? { value: gold, decimals: 6 } : goldPrecision(gold);
  if (!g) return false;
  const target = Math.abs(g.value);
  // Only amounts change scale between a table and a question; ratios and percentages are compared as they are.
  const factors = typeof gold === 'string' && !/\$|million|billion|thousand|\b(mn|bn)\b/i.test(gold) ? [1] : [1, 1e3, 1e-3, 1e6, 1e-6];
  return figuresIn(answer).some((f) => {
    if (f.isYear) return false;
    for (const factor of factors) {
      const value = Math.abs(f.value) * factor;
      // The answer as precise as the gold or more: it rounds to the gold ("5,466,312" thousand for "$5466.00" million).
      if (Math.abs(value - target) <= 0.5 * 10 ** -g.decimals + 1e-9 * target) return true;
      // The answer less precise than the gold: the gold rounds to it ("1,577" for "1577.4"), if it is not too coarse.
      const rounded = Number((target / factor).toFixed(f.decimals)) * factor;
      if (f.significant >= 3 && Math.abs(value - rounded) <= 1e-9 * Math.max(1, target)) return true;
    }
    return false;
  });
}

/** The gold figure and its real precision: trailing zeros of "1577.00" or "8.70" are formatting, not precision. */
function goldPrecision(answer: string): { value: number; decimals: number } | undefined {
  const first = figuresIn(answer)[0];
  const text = /\d[\d,]*(\.\d+)?/.exec(answer)?.[1] ?? '';
  return first && { value: first.value, decimals: text.replace(/0+$/, '').length > 1 ? text.replace(/0+$/, '').length - 1 : 0 };
}

/**
 * A figure question: FinanceBench's "metrics-generated" type (figures from the statements), or any question whose
 * gold answer is just a number.
 */
export function isFigureQuestion(q: { question_type: string; answer: string }): boolean {
  return q.question_type === 'metrics-generated' || /^\s*\(?-?\$?\s?[\d,]+(\.\d+)?\)?\s*%?\s*$/.test(q.answer);
}
