/**
 * Figures as printed in tables and prose: "1,452.4", "$ 1,452.4", "(134)" (negative), "-3.2", "30.8%", "—" (nil), and
 * the scale a table prints its figures in ("in millions", "€m", "$000"). Pure functions, no domain.
 */

export interface Figure {
  /** The cell as printed (currency sign and spaces folded: "$1,452.4", "(134)", "30.8%"). */
  text: string;
  /** Its value as printed (30.8 for "30.8%"), undefined for a nil cell ("—", "-", "n/a"). */
  value: number | undefined;
  /** Printed with a percent sign. */
  percent: boolean;
  /** Decimal places printed (for rounding an answer computed from it as its operands are printed). */
  decimals: number;
}

/** What a table's figures count in, as its title or column header prints it. */
export interface TableUnit {
  /** Each figure is this many units: 1e3 for "in thousands", 1e6 for "$m". */
  multiplier: number;
  /** The scale's word for an answer line ("thousand", "million", "billion"), when there is one. */
  scale?: 'thousand' | 'million' | 'billion';
  /** A currency sign or code the table or its cells print ("$", "€", "£", "USD"). */
  currency?: string;
  /** The figures are percentages (a "%" column header or unit). */
  percent?: boolean;
}

const NIL = /^(?:[—–-]+|n\/?a|nm|nil|none)$/i;
const NUMBER = /^([-−+]?)\(?([-−]?)(\d[\d,]*(?:\.\d+)?|\.\d+)\)?$/;
const CURRENCY = /[$€£¥]|\b(?:USD|EUR|GBP|CHF|JPY|RMB|CNY|AUD|CAD|SGD|HKD)\b/;

/**
 * One cell's figure, or undefined when the cell is not a figure (a word, a date). A negative is printed "(134)",
 * "-134" or "−134"; a currency sign may stand before the figure or inside its brackets ("$(12)").
 */
export function parseFigure(cell: string): Figure | undefined {
  // A negative share printed "(9.4%)" reads as "(9.4)%".
  const text = cell.replace(/\s+/g, '').replace(/^[$€£¥]/, '').replace(/^\(([$€£¥])/, '(').replace(/^\((.*)%\)$/, '($1)%');
  if (text === '') return undefined;
  if (NIL.test(text)) return { text, value: undefined, percent: false, decimals: 0 };
  const percent = text.endsWith('%');
  const bare = percent ? text.slice(0, -1) : text;
  const match = NUMBER.exec(bare);
  if (!match) return undefined;
  const bracketed = bare.startsWith('(') && bare.endsWith(')');
  if (bare.startsWith('(') !== bare.endsWith(')')) return undefined;
  const negative = bracketed || match[1] === '-' || match[1] === '−' || match[2] !== '';
  const digits = match[3].replace(/,/g, '');
  // "1,45" is no thousands grouping: a comma must be followed by three digits.
  if (match[3].includes(',') && !/^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(match[3])) return undefined;
  const value = Number(digits) * (negative ? -1 : 1);
  return { text: cell.replace(/\s+/g, ''), value: Object.is(value, -0) ? 0 : value, percent, decimals: digits.split('.')[1]?.length ?? 0 };
}

const SCALES: Array<{ pattern: RegExp; multiplier: number; scale: TableUnit['scale'] }> = [
  { pattern: /\bin\s+billions\b|\bbillions?\s+of\b|(?:[$€£¥]|\b(?:USD|EUR|GBP))\s?(?:bn|b)\b|\b(?:bn|billion)\b/i, multiplier: 1e9, scale: 'billion' },
  { pattern: /\bin\s+millions\b|\bmillions?\s+of\b|(?:[$€£¥]|\b(?:USD|EUR|GBP|RMB))\s?(?:mn|m|mm|million)\b|\b(?:mn|mm|million)\b|\b[$€£]m\b|€m|£m/i, multiplier: 1e6, scale: 'million' },
  { pattern: /\bin\s+thousands\b|\bthousands\s+of\b|(?:[$€£¥])\s?(?:000|'000|k)\b|\b(?:USD|EUR|GBP|RMB)\s?(?:000|'000|k)\b|\(000s?\)|\b000s\b|\bthousand\b/i, multiplier: 1e3, scale: 'thousand' },
];

/**
 * The unit a table prints its figures in, from the lines above its rows (title, "(Dollars in millions)", a column
 * header "2019 €m"): the first scale named and the currency named. Undefined when they name neither.
 */
export function tableUnitOf(lines: readonly string[]): TableUnit | undefined {
  const text = lines.join(' ');
  // A scale in brackets ("($ in millions)") is the table's; a scale word elsewhere may be prose's ("were $1.73 billion").
  const bracketed = text.match(/\([^()]*\)/g)?.join(' ') ?? '';
  const scale = SCALES.find((s) => s.pattern.test(bracketed)) ?? SCALES.find((s) => s.pattern.test(text));
  const currency = CURRENCY.exec(text)?.[0] ?? (/\bdollars?\b/i.test(text) ? '$' : /\beuros?\b/i.test(text) ? '€' : undefined);
  // Percent only when that is all the lines say of their unit ("(in percent)", "%" alone): a header with a "% Change"
  // column beside amounts is no table of percentages.
  const percent = /^\s*\(?(?:%|in percent(?:ages)?)\)?\s*$/i.test(text) || (/\bin percent(?:ages)?\b/i.test(text) && !scale && !CURRENCY.test(text));
  if (!scale && !currency && !percent) return undefined;
  return { multiplier: scale?.multiplier ?? 1, ...(scale ? { scale: scale.scale } : {}), ...(currency ? { currency } : {}), ...(percent ? { percent } : {}) };
}

/** A number as an answer prints it: thousands grouped, at most `decimals` places, trailing zeros dropped. */
export function formatNumber(value: number, decimals = 2, keepDecimals = false): string {
  const rounded = roundTo(value, decimals);
  const [whole, fraction] = Math.abs(rounded).toFixed(decimals).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const trimmed = keepDecimals ? fraction : fraction?.replace(/0+$/, '');
  return `${rounded < 0 ? '−' : ''}${grouped}${trimmed ? `.${trimmed}` : ''}`;
}

/** Rounds half away from zero at `decimals` places, without binary drift (1.005 → 1.01). */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.sign(value) * Math.round(Math.abs(value) * factor + Number.EPSILON * factor) / factor;
}

/** A figure with its unit as an answer line states it: "$8,985 million", "30.8%", "1,234 thousand". */
export function withUnit(value: number, unit: TableUnit | undefined, options: { decimals?: number; percent?: boolean; keepDecimals?: boolean } = {}): string {
  const number = formatNumber(value, options.decimals ?? 2, options.keepDecimals);
  if (options.percent ?? unit?.percent) return `${number}%`;
  const currency = unit?.currency && unit.currency.length === 1 ? unit.currency : '';
  const code = unit?.currency && unit.currency.length > 1 ? ` ${unit.currency}` : '';
  const scale = unit?.scale ? ` ${unit.scale}` : '';
  return number.startsWith('−') ? `−${currency}${number.slice(1)}${scale}${code}` : `${currency}${number}${scale}${code}`;
}
