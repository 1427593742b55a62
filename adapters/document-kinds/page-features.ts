/**
 * What a page's text and layout show of its kind of document, counted line by line (a small set of explainable
 * features; adapters/document-kinds/classify.ts weighs them). Languages: the words counted are those a receipt,
 * a report, a form or a letter prints in English, German and French; layout features (amounts ending lines, short
 * lines, year headers, rows of figures) hold in any language.
 */
export interface PageFeatures {
  pages: number;
  /** Non-empty lines. */
  lines: number;
  /** Characters of those lines. */
  chars: number;
  /** Lines of at most SHORT_LINE characters (a till roll's width). */
  shortLines: number;
  /** Lines that end in a price ("1,99", "5,69 D", "200.00 €"), or are one. */
  amountLines: number;
  /** Lines of ten words or more: sentences, which a till receipt hardly prints. */
  proseLines: number;
  /** Lines that open with a till's tally word (total, sum, change, VAT, card payment). */
  tallyLines: number;
  /** A page that is an SEC filing's cover: the Commission, a form's number and the registrant, all three. */
  filingCovers: number;
  /** A till's marks anywhere: its receipt number, till, change given, card payment, thanks for shopping. */
  tillMarks: number;
  /** Lines naming two or more years apart (not a range, "1890–1913") and at most four words: a table's column header. */
  yearHeaders: number;
  /** Lines with a label and two or more figures: a table's row. */
  figureRows: number;
  /** Words of financial statements ("net income", "total assets", "in millions"). */
  statementTerms: number;
  /** Marks of a form or instructions: check boxes, blanks to fill, "line 12", "attach", "if you". */
  formMarks: number;
  /** A salutation opening a line ("Dear Ms Smith,", "Sehr geehrte …", "Madame, Monsieur,"). */
  salutations: number;
  /** A letter's closing ("Sincerely", "Mit freundlichen Grüßen", "Cordialement"). */
  closings: number;
  /** Words on the pages. */
  words: number;
}

export const SHORT_LINE = 40;

const PRICE_AT_END = /(?:^|\s)[-–]?(?:[$€£]\s?)?\d{1,4}(?:[.,']\d{3})*[.,]\d{2}(?:\s?(?:[$€£]|eur|usd|chf))?(?:\s+(?:[A-Z*©®]{1,2}\d?|\d))?\s*$/i;
const TALLY_WORD = /^\s*(?:sub-?total|total|summe|gesamt(?:betrag|summe)?|zu zahlen|zwischensumme|betrag|bar(?:geld)?|gegeben|r[üu]ckgeld|wechselgeld|change|cash|ec[- ]?cash|kartenzahlung|girocard|visa|mastercard|mwst|ust|vat|tva|montant|à payer|net à payer|rendu|espèces)\b/i;
const FILING_COVER = [/securities and exchange commission/i, /\bform (?:10-k|10-q|8-k|20-f|6-k|s-1)\b/i, /\bregistrant\b/i];
// OCR often reads "ü" as "ii" (Riickgeld) or drops it (FUR).
const TILL_MARKS = /\b(?:kassenbon|bon[- ]?nr|beleg[- ]?nr|kasse\s?\d|bed\.?\s?nr|terminal[- ]?id|ta[- ]nr|r(?:[üu]|ii)ckgeld|wechselgeld|kartenzahlung|girocard|ec[- ]?karte|vielen dank f(?:[üu]|ii)?r ihren einkauf|thank you for (?:shopping|your purchase)|change due|merci de votre visite|ticket de caisse)\b/gi;
const YEAR = /\b(?:19|20)\d{2}\b/g;
const YEAR_RANGE = /\b(?:19|20)\d{2}\s?[-–—]\s?(?:(?:19|20)?\d{2})\b/;
const FIGURE = /(?:^|\s)\(?[-–]?[$€£]?\s?\d{1,3}(?:,\d{3})+(?:\.\d+)?\)?%?(?=\s|$)|(?:^|\s)\(?[-–]?[$€£]?\d+(?:\.\d+)?\)?%?(?=\s|$)/g;
const STATEMENT_TERMS = /\b(?:net income|net (?:loss|earnings|sales|revenues?)|total (?:assets|liabilities|equity|revenues?)|operating (?:income|expenses|activities)|gross (?:profit|margin)|(?:share|stock)holders['’]? equity|earnings per share|cash flows?|balance sheets?|income statements?|statements? of (?:operations|income|earnings|financial position)|fiscal (?:year|20\d{2})|in (?:millions|thousands|billions)|\$ ?in (?:millions|thousands)|form (?:10-[kq]|8-k|20-f)|annual report|quarterly report|securities and exchange commission|registrant|exchange act|depreciation|amorti[sz]ation|dividends?|segment|ebitda|impairment|goodwill|receivables|payables|inventor(?:y|ies)|[£€$]m\b|umsatzerl[öo]se|jahres(?:überschuss|abschluss)|bilanz|chiffre d['’]affaires|r[ée]sultat net|bilan)\b/gi;
const FORM_MARKS = /[☐☑☒□■▢]|_{4,}|\bline \d+[a-z]?\b|\b(?:attach|enter (?:the|your|on)|check (?:the|here|if|box)|fill in|see (?:the )?instructions|if you (?:are|were|have|did|do)|you must|complete (?:the|this|lines?)|schedule [a-z]\b|zeile \d+|ankreuzen|cochez|ligne \d+)\b/gi;
const SALUTATION = /^\s*(?:dear\s+\S|to whom it may concern|sehr geehrte|liebe[rs]?\s+\S|hallo\s+\S|madame,?|monsieur,?|ch[eè]re?s?\s+\S|bonjour\s+\S)/i;
const CLOSING = /^\s*(?:(?:yours )?sincerely|(?:kind |best |warm )?regards|yours (?:truly|faithfully)|best wishes|mit freundlichen gr[üu](?:ß|ss)en|freundliche gr[üu](?:ß|ss)e|viele gr[üu](?:ß|ss)e|cordialement|bien cordialement|veuillez agr[ée]er|je vous prie d['’]agr[ée]er)/i;

/** The features of one page's text. */
export function pageFeatures(text: string): PageFeatures {
  const lines = text.split('\n').map((line) => line.trim()).filter((line) => line.length > 0);
  const features: PageFeatures = {
    pages: 1, lines: lines.length, chars: 0, shortLines: 0, proseLines: 0, amountLines: 0, tallyLines: 0, yearHeaders: 0, figureRows: 0,
    statementTerms: (text.match(STATEMENT_TERMS) ?? []).length, tillMarks: (text.match(TILL_MARKS) ?? []).length,
    filingCovers: FILING_COVER.every((mark) => mark.test(text)) ? 1 : 0, formMarks: (text.match(FORM_MARKS) ?? []).length,
    salutations: 0, closings: 0, words: (text.match(/\p{L}+|\d+/gu) ?? []).length,
  };
  for (const line of lines) {
    features.chars += line.length;
    if (line.length <= SHORT_LINE) features.shortLines++;
    if (PRICE_AT_END.test(line)) features.amountLines++;
    if (TALLY_WORD.test(line)) features.tallyLines++;
    if (SALUTATION.test(line)) features.salutations++;
    if (CLOSING.test(line)) features.closings++;
    const words = (line.match(/\p{L}+/gu) ?? []).length;
    if (words >= 10) features.proseLines++;
    const years = new Set(line.match(YEAR) ?? []);
    const letters = (line.match(/\p{L}/gu) ?? []).length;
    if (years.size >= 2 && words <= 4 && !YEAR_RANGE.test(line)) features.yearHeaders++;
    const figures = (line.match(FIGURE) ?? []).length;
    if (figures >= 2 && letters >= 3) features.figureRows++;
  }
  return features;
}

/** Two tallies added (a document's pages so far and one more page). */
export function addFeatures(a: PageFeatures, b: PageFeatures): PageFeatures {
  const sum = { ...a };
  for (const key of Object.keys(b) as (keyof PageFeatures)[]) sum[key] = a[key] + b[key];
  return sum;
}

export const NO_FEATURES: PageFeatures = {
  pages: 0, lines: 0, chars: 0, shortLines: 0, proseLines: 0, tillMarks: 0, filingCovers: 0, amountLines: 0, tallyLines: 0, yearHeaders: 0, figureRows: 0,
  statementTerms: 0, formMarks: 0, salutations: 0, closings: 0, words: 0,
};
