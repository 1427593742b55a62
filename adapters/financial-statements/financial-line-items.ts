/**
 * The standard lines of the three financial statements (US GAAP captions), as analysts name them and as filings print
 * them: the vocabulary a computed figure (financial-metrics.ts) is written in. Nothing here is about any one
 * filing: the captions are the common textbook and 10-K wordings of each line.
 */

import type { Statement } from './statements.js';

export type { Statement };

export interface LineItem {
  /** Stable key: the concept's name, or the phrase itself for a line the vocabulary does not know. */
  key: string;
  /** How an answer names it. */
  name: string;
  /** The statement that holds it; rows from another statement are not taken for it (the cash-flow "Inventories" change). */
  statement?: Statement;
  /** Row labels (normalised with normalizeLabel) that print it, best first. */
  labels: RegExp[];
  /** Words to retrieve the rows by. */
  query: string;
  /** Outflows printed in parentheses ("(1,577)") are used as amounts: a formula subtracts capital expenditure itself. */
  magnitude: boolean;
}

interface Concept extends Omit<LineItem, 'key'> {
  key: string;
  /** What analysts and questions call it (normalised phrase). */
  aliases: RegExp;
}

const PPE = '(property|premises)( plant)?( (and|&) equipment)';

const CONCEPTS: Concept[] = [
  {
    key: 'revenue', name: 'revenue', statement: 'income', magnitude: true,
    aliases: /^(total )?(net )?(revenues?|sales|turnover|top ?line)( net)?$/,
    labels: [/^total net (sales|revenues?)$/, /^total revenues?( net)?$/, /^(net )?revenues?( net)?$/, /^net sales$/, /^sales$/, /^total sales$/, /^net sales and revenues?$/],
    query: 'total net sales revenue',
  },
  {
    key: 'cogs', name: 'cost of goods sold', statement: 'income', magnitude: true,
    aliases: /^(total )?(cogs|cost of (goods sold|sales|revenues?|products sold|merchandise sold))$/,
    labels: [/^total cost of (revenues?|sales)$/, /^cost of (sales|revenues?|goods sold|products sold|merchandise sold)$/, /^cost of (sales|revenues?|goods sold|products sold)( excluding .*)$/, /^merchandise costs$/],
    query: 'cost of sales cost of revenue cost of goods sold',
  },
  {
    key: 'gross-profit', name: 'gross profit', statement: 'income', magnitude: false,
    aliases: /^gross (profit|margin dollars)$/, labels: [/^gross (profit|margin)$/], query: 'gross profit',
  },
  {
    key: 'operating-income', name: 'operating income', statement: 'income', magnitude: false,
    aliases: /^(operating (income|profit|earnings)|income from operations|ebit)$/,
    labels: [/^operating (income|profit|earnings)( loss)?$/, /^(income )?(loss )?from operations$/, /^operating loss$/, /^total operating income$/],
    query: 'operating income income from operations',
  },
  {
    key: 'net-income', name: 'net income', statement: 'income', magnitude: false,
    aliases: /^net (income|earnings|profit)( attributable to .*)?$|^(bottom ?line|profit)$/,
    labels: [/^net (income|earnings|loss)( loss)? attributable to (?!.*non ?controlling)/, /^net (income|earnings)( loss)?$/, /^net loss$/, /^net (income|earnings) including non ?controlling interests?$/],
    query: 'net income net earnings attributable',
  },
  {
    key: 'pretax-income', name: 'income before income taxes', statement: 'income', magnitude: false,
    aliases: /^(pre ?tax (income|earnings)|(income|earnings) before (income )?taxes)$/,
    labels: [/^(income|earnings|loss)( loss)?( from continuing operations)? before (provision for )?income tax(es)?/],
    query: 'income before income taxes',
  },
  {
    key: 'income-tax', name: 'income tax expense', statement: 'income', magnitude: true,
    aliases: /^(income tax(es)?( expense| provision)?|provision for income taxes|tax expense)$/,
    labels: [/^provision for income taxes$/, /^income tax (expense|provision)( benefit)?$/, /^income taxes$/, /^provision for \(?benefit from\)? income taxes$/],
    query: 'provision for income taxes',
  },
  {
    key: 'interest-expense', name: 'interest expense', statement: 'income', magnitude: true,
    aliases: /^interest expenses?$/, labels: [/^interest expense( net)?$/], query: 'interest expense',
  },
  {
    key: 'depreciation', name: 'depreciation and amortization', statement: 'cash', magnitude: true,
    aliases: /^(d&a|depreciation (and|&) amortization( expense)?)$/,
    labels: [/^depreciation (and|&) amortization( expense)?$/, /^depreciation amortization and other$/, /^depreciation and amortization of property/],
    query: 'depreciation and amortization',
  },
  {
    key: 'total-assets', name: 'total assets', statement: 'balance', magnitude: true,
    aliases: /^total assets$/, labels: [/^total assets$/], query: 'total assets',
  },
  {
    key: 'current-assets', name: 'total current assets', statement: 'balance', magnitude: true,
    aliases: /^(total )?current assets$/, labels: [/^total current assets$/], query: 'total current assets',
  },
  {
    key: 'current-liabilities', name: 'total current liabilities', statement: 'balance', magnitude: true,
    aliases: /^(total )?current liabilities$/, labels: [/^total current liabilities$/], query: 'total current liabilities',
  },
  {
    key: 'total-liabilities', name: 'total liabilities', statement: 'balance', magnitude: true,
    aliases: /^total liabilities$/, labels: [/^total liabilities$/], query: 'total liabilities',
  },
  {
    key: 'equity', name: "total shareholders' equity", statement: 'balance', magnitude: false,
    aliases: /^(total )?((share|stock)holders|shareowners|share owners)? ?equity$/,
    labels: [/^total (?!liabilities).*((share|stock)holders|shareowners|share owners) equity$/, /^total equity$/],
    query: 'total shareholders equity stockholders',
  },
  {
    key: 'inventory', name: 'inventories', statement: 'balance', magnitude: true,
    aliases: /^(total )?(merchandise )?inventor(y|ies)( net)?$/,
    labels: [/^total inventor(y|ies)$/, /^(merchandise )?inventor(y|ies)( net)?$/],
    query: 'inventories merchandise inventories',
  },
  {
    key: 'receivables', name: 'accounts receivable', statement: 'balance', magnitude: true,
    aliases: /^(accounts |trade )?receivables?( net)?$|^accounts receivable( net)?$/,
    labels: [/^(trade )?accounts receivables?( net)?( of allowances?\b.*)?$/, /^(accounts|trade) receivables?( net)? and other( net)?$/, /^(trade )?receivables( net)?$/],
    query: 'accounts receivable net',
  },
  {
    key: 'payables', name: 'accounts payable', statement: 'balance', magnitude: true,
    aliases: /^(accounts |trade )?payables?$/,
    labels: [/^accounts payable( trade)?$/, /^trade (accounts )?payables?$/],
    query: 'accounts payable',
  },
  {
    key: 'ppe', name: 'property, plant and equipment, net', statement: 'balance', magnitude: true,
    aliases: new RegExp(`^(net )?(pp&e|ppne|ppe|${PPE}|fixed assets)( net)?$`),
    labels: [new RegExp(`^(total )?${PPE} net$`), new RegExp(`^net ${PPE}$`), new RegExp(`^${PPE} net of accumulated depreciation`)],
    query: 'property plant and equipment net',
  },
  {
    key: 'operating-cash-flow', name: 'cash from operations', statement: 'cash', magnitude: false,
    aliases: /^((net )?cash (flows? )?(provided by |generated by |from )(operations|operating activities)|operating cash flows?|cash from operations)$/,
    labels: [/^(net |total )?cash (provided|generated|used)? ?(by|from|in)( used in| by)? operating activities( continuing operations)?$/, /^(net )?cash (provided by|generated by|from) operations$/],
    query: 'net cash provided by operating activities',
  },
  {
    key: 'capex', name: 'capital expenditure', statement: 'cash', magnitude: true,
    aliases: new RegExp(`^(capex|capital expenditures?|capital spending|purchases? of (pp&e|${PPE}))$`),
    labels: [new RegExp(`^purchases? of ${PPE}`), /^capital expenditures?$/, new RegExp(`^(additions|payments) (to|for) ${PPE}`), /^expenditures for property/],
    query: 'purchases of property and equipment capital expenditures',
  },
  {
    key: 'dividends', name: 'dividends paid', statement: 'cash', magnitude: true,
    aliases: /^(cash )?dividends( paid)?( to (common )?(share|stock)holders)?$/,
    labels: [/^(common stock )?(cash )?dividends paid( to .*)?$/, /^dividends( paid)? on common stock$/, /^payments? (of|for) dividends/],
    query: 'dividends paid',
  },
  {
    key: 'cash', name: 'cash and cash equivalents', statement: 'balance', magnitude: true,
    aliases: /^cash (and (cash )?)?equivalents$/, labels: [/^cash and cash equivalents$/], query: 'cash and cash equivalents',
  },
];

/** A row label or a phrase as plain words: lower case, punctuation and footnote marks gone ("(1)", "’s"). */
export function normalizeLabel(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’']s\b/g, 's')
    .replace(/\(\d\)|\(\w\)$/g, ' ')
    .replace(/[^a-z0-9&]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The line item a phrase of a question names ("COGS", "net PP&E", "inventory"), or, for a phrase the vocabulary does
 * not know and `free` allows (a formula the question itself spells out), a line labelled with the phrase's words.
 */
export function lineItemFor(phrase: string, free = false): LineItem | undefined {
  const words = normalizeLabel(phrase).replace(/^(the|a|an|of|in|its|their) /, '');
  const concept = CONCEPTS.find((c) => c.aliases.test(words));
  if (concept) {
    const { aliases: _aliases, ...item } = concept;
    return item;
  }
  if (!free || !/[a-z]{3}/.test(words) || words.split(' ').length > 8) return undefined;
  const escaped = words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return { key: words, name: words, labels: [new RegExp(`^(total )?${escaped}$`)], query: words, magnitude: false };
}
