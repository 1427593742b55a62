import type { Answer, ContextPassage } from '../../core/index.js';
import { DATE, detailLines } from './receipt-details.js';
import { AMOUNT, boughtOfFile, linesOf, looksLikeReceipt, namedReceipt, oneLine, receiptTotal } from './receipt-total.js';

/** Item lines an overview quotes of a receipt. */
const OVERVIEW_ITEMS = 3;

/** Lines with an amount, at least this share of a document's opening lines: a receipt is mostly such lines. */
const MIN_AMOUNT_LINES = 0.25;

/** Lines of prose (ten words or more, ending a sentence), at most this share: a report with a "Total 1.44" row has many. */
const MAX_PROSE_LINES = 0.1;

/**
 * A receipt's part of an overview ("What documents do I have?"): its day, its total and its first item lines, quoted as
 * read. A photographed receipt opens with the shop's address and OCR debris, which is what the overview's lead
 * sentence would quote. Undefined for a document that does not read as a receipt: a file name saying receipt, or a
 * total line (or a total word among amounts) in lines with amounts and hardly any prose.
 */
export function receiptOverview(passages: ContextPassage[]): Answer | undefined {
  if (passages.length === 0) return undefined;
  const lines = passages.flatMap((p) => linesOf(p.text));
  const mostlyAmounts = lines.filter((line) => line.match(AMOUNT)).length >= MIN_AMOUNT_LINES * lines.length;
  const totals = passages.map((p) => receiptTotal(p.text));
  const total = totals.find((t) => t !== undefined);
  const totalAt = total && passages[totals.indexOf(total)];
  const prose = lines.filter((line) => line.split(/\s+/).length >= 10 && /[.!?]["”’)]?$/.test(line)).length;
  const readsAsReceipt = mostlyAmounts && prose <= MAX_PROSE_LINES * lines.length && (total !== undefined || passages.some((p) => looksLikeReceipt(p.text)));
  if (!readsAsReceipt && !namedReceipt(passages[0].filename)) return undefined;
  const days = passages.map((p) => detailLines(p.text, 'date')[0]);
  const day = days.find((d) => d !== undefined);
  const dayAt = day === undefined ? undefined : passages[days.indexOf(day)];
  const bought = boughtOfFile(passages);
  const items = (bought?.lines ?? []).filter((line) => line !== total?.line).map(oneLine);
  const shown = items.slice(0, OVERVIEW_ITEMS);
  const used = [totalAt, dayAt, ...(shown.length > 0 && bought ? [bought.passage, ...bought.also] : [])].filter((p): p is ContextPassage => p !== undefined);
  const text = `A receipt${day !== undefined ? ` of ${dayOf(day)}` : ''}${total ? `, total ${total.amount} (“${oneLine(total.line)}”)` : ''}` +
    `${shown.length > 0 ? `: “${shown.join(' … ')}”${items.length > shown.length ? ' and more' : ''}` : ''}.`;
  return { text, usedRefs: [...new Set(used.map((p) => p.ref))] };
}

/** The day a date line prints, and its time when one follows ("23.09.16 14:05"), without the OCR debris around it. */
function dayOf(line: string): string {
  const day = DATE.exec(line)!;
  const time = /^\s+(\d{1,2}:\d{2})\b/.exec(line.slice(day.index + day[0].length));
  return time ? `${day[0]} ${time[1]}` : day[0];
}
