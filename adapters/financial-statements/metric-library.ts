/**
 * The metrics a question may name without defining them, with their textbook definitions (financial-statement analysis
 * textbooks), written in the formula language of financial-formula.ts over the lines of financial-line-items.ts. Nothing
 * here comes from any one filing or question.
 */
export interface Metric {
  name: string;
  /** On the lower-cased question, after normalisation (fiscal years as "fy2017"). */
  pattern: RegExp;
  /** The textbook definition, in the formula language of financial-formula.ts (years relative to the one asked). */
  formula: string;
  /** Conventionally stated as a percentage. */
  percent: boolean;
}

/** Standard definitions (financial-statement analysis textbooks): averages are of the year's opening and closing balances. */
export const METRICS: Metric[] = [
  { name: 'current ratio', pattern: /\b(working capital|current) ratio\b/, formula: 'total current assets / total current liabilities', percent: false },
  { name: 'working capital', pattern: /\b(net )?working capital\b(?! ratio)/, formula: 'total current assets - total current liabilities', percent: false },
  { name: 'free cash flow', pattern: /\b(free cash flows?|fcf)\b/, formula: 'cash from operations - capital expenditure', percent: false },
  { name: 'gross margin', pattern: /\bgross (profit )?margin\b/, formula: '(revenue - cogs) / revenue', percent: true },
  { name: 'operating margin', pattern: /\b(operating (profit |income )?|ebit (% )?)margin\b/, formula: 'operating income / revenue', percent: true },
  { name: 'net profit margin', pattern: /\b(net (profit |income )?margin|profit margin)\b/, formula: 'net income / revenue', percent: true },
  { name: 'EBITDA margin', pattern: /\bebitda (% |percent )?margin\b/, formula: '(operating income + depreciation and amortization) / revenue', percent: true },
  { name: 'EBITDA', pattern: /\bebitda\b(?! (% |percent )?margin)/, formula: 'operating income + depreciation and amortization', percent: false },
  { name: 'fixed asset turnover', pattern: /\b(fixed asset|pp&e|ppne) turnover\b/, formula: 'revenue / average pp&e', percent: false },
  { name: 'total asset turnover', pattern: /\b(total )?assets? turnover\b/, formula: 'revenue / average total assets', percent: false },
  { name: 'inventory turnover', pattern: /\binventory turnover\b/, formula: 'cogs / average inventory', percent: false },
  { name: 'receivables turnover', pattern: /\b(accounts )?receivables? turnover\b/, formula: 'revenue / average accounts receivable', percent: false },
  { name: 'days inventory outstanding', pattern: /\b(days inventory outstanding|days (of |in )?inventory|dio)\b/, formula: '365 * average inventory / cogs', percent: false },
  { name: 'days sales outstanding', pattern: /\b(days sales outstanding|dso)\b/, formula: '365 * average accounts receivable / revenue', percent: false },
  { name: 'days payable outstanding', pattern: /\b(days payables? outstanding|dpo)\b/, formula: '365 * average accounts payable / cogs', percent: false },
  { name: 'cash conversion cycle', pattern: /\b(cash conversion cycle|ccc)\b/, formula: 'days inventory outstanding + days sales outstanding - days payable outstanding', percent: false },
  { name: 'return on assets', pattern: /\b(return on (total )?assets|roa)\b/, formula: 'net income / average total assets', percent: true },
  { name: 'return on equity', pattern: /\b(return on (shareholders |stockholders )?equity|roe)\b/, formula: 'net income / average total shareholders equity', percent: true },
  { name: 'quick ratio', pattern: /\b(quick|acid[- ]test) ratio\b/, formula: '(total current assets - inventory) / total current liabilities', percent: false },
  { name: 'retention ratio', pattern: /\b(earnings )?retention ratio\b/, formula: '(net income - dividends paid) / net income', percent: false },
  { name: 'operating cash flow ratio', pattern: /\boperating cash flow ratio\b/, formula: 'cash from operations / total current liabilities', percent: false },
  { name: 'dividend payout ratio', pattern: /\b(dividend )?payout ratio\b/, formula: 'dividends paid / net income', percent: false },
  { name: 'effective tax rate', pattern: /\beffective (income )?tax rate\b/, formula: 'income tax expense / income before income taxes', percent: true },
  { name: 'interest coverage ratio', pattern: /\binterest coverage( ratio)?\b/, formula: 'operating income / interest expense', percent: false },
];
