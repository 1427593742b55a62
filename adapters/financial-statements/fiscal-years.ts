/**
 * Fiscal years as questions write them ("FY2018", "FY 2018", "FY'18", "FY18"): the one reader of that notation, for
 * the lexical query (filings print the bare year over their columns), the figure requests and the table-row lead.
 */
const FISCAL_YEAR = /\bfy\s?'?(\d{4}|\d{2})\b/gi;

/** The text with each fiscal year written by `write` (given the four-digit year). */
export function rewriteFiscalYears(text: string, write: (year: number) => string): string {
  return text.replace(FISCAL_YEAR, (_, digits: string) => write(digits.length === 2 ? 2000 + Number(digits) : Number(digits)));
}

/** Every year a text names, as a fiscal year or a bare year (1900–2099), in order. */
export function yearsNamed(text: string): number[] {
  return [...rewriteFiscalYears(text, (year) => ` ${year} `).matchAll(/\b((?:19|20)\d\d)\b/g)].map((m) => Number(m[1]));
}
