/**
 * A figure question answered from the passages' tables read as rows × columns (core/rag/tables): the direct line
 * first ("Consolidated Net Income, 2019: $8,985 million", or the computation asked: "Percentage change in … : 38.74%
 * ((8,985 − 6,476) / 6,476 = 38.74%)"), then the rows it read, quoted under their column header.
 */
import { answerFromTables, isTableRow, keysOf, NOT_FOUND_ANSWER, passagePlace, readTableGrids, splitUnits, tableTexts, type Answer, type AnswerRequest, type ContextPassage, type TableAnswer, type TableGrid } from '../../core/index.js';
import { ownQuestion } from './question-wording.js';

/**
 * Below this row match a plain look-up is left to the sentence ranking: a question that shares a label's words may
 * still ask something else. Computations need the same match but ask for a figure by their words.
 */
const LOOKUP_CONFIDENCE = 0.75;
/** A question that asks for a figure: what is / how much / how many, not why, who, when or a description. */
const ASKS_FIGURE = /^(?:(?:in|for|as of|at)\b[^,?]{0,40},\s*)?(?:what\s+(?:is|was|were|are|will be)\b|how\s+(?:much|many)\b)/i;
/** A figure asked for in a few words, as typed in a search box: a name and a year, no question word ("Net income 2019?"). */
const TERSE_FIGURE = /^(?!(?:what|how|which|who|whom|whose|when|where|why|is|are|was|were|do|does|did|can|could|should|would|will|has|have|had|please|tell|explain|describe)\b)[^.!?]{0,80}\b(?:19|20)\d\d\b[^.!?]{0,20}[.?]?\s*$/i;
const ASKS_OTHER = /\b(?:why|reasons?|describe|explain|means|meant|meaning|purpose|how (?:did|does|is|was|were|are)|led to|lead to|caused?|causes|driven|drove|influenced|relates?|related|represented|represents?|excluded|excludes|included|includes|consists?|comprises?|components|due to|attributable|affected)\b/i;
/** "How did X change from 2018 to 2019?" asks how much, not why: a change between two periods named. */
const ASKS_CHANGE_BETWEEN = /^\s*how\s+(?:did|has|have|does|do)\b.*\b(?:change|changed|increase|increased|decrease|decreased|grow|grew|fall|fell|rise|rose|move|moved|develop|developed)\s+(?:from|between)\s+(?:fiscal\s+|FY\s?)?(?:19|20)\d\d\b/i;
/** "What does X mean?" asks what X is ("the mean X" asks an average). */
const ASKS_MEANING = /\bmean\s*\??\s*$/i;
/** "What was X?": asked of a row, a figure it held (what a term is, "What is X?", stays the sentences'). */
const ASKS_PAST = /^\s*what\s+(?:was|were)\b/i;
/** A plain look-up names the period or the figure it wants: "What is Trade receivables?" asks what they are. */
const NAMES_FIGURE = /(?:\bFY\s?|\b)(?:19|20)\d\d\b|\b(?:amount|value|total|balance|sum|figure|how much|how many|number of|price|cost|costs)\b/i;

export function tableAnswer(request: AnswerRequest): Answer | undefined {
  return tableAnswerRead(request)?.answer;
}

/** The table's answer and what it did: a figure computed from cells is surer than a skill's own reading of the rows. */
export function tableAnswerRead(request: AnswerRequest): { answer: Answer; computed: boolean; lookup: boolean; named: string; passage: ContextPassage; read: ContextPassage } | undefined {
  const grids: TableGrid[] = [];
  const passagesOf = new Map<TableGrid, ContextPassage[]>();
  // A table the chunking split is read whole, from the passages it runs over.
  for (const { text, run } of tableTexts(request.contexts)) {
    for (const grid of readTableGrids(splitUnits(text))) {
      grids.push(grid);
      passagesOf.set(grid, run);
    }
  }
  const question = ownQuestion(request.question);
  const found = answerFromTables(question, grids);
  if (!found || !fires(found, question)) return undefined;
  const grid = found.cells[0].grid;
  const rows = [...new Set(found.cells.map((c) => c.row))];
  // The passage cited is the one that prints the rows read (the first of them, when they run over two).
  const run = passagesOf.get(grid)!;
  const passage = run.find((p) => rows.every((r) => p.text.includes(r.text))) ?? run.find((p) => p.text.includes(rows[0].text)) ?? run[0];
  const quote = [grid.header, ...rows.map((r) => r.text)].filter(Boolean).join(' | ');
  const answer = {
    text: `${found.line}\n\n“${quote}” [1]\n\nSources: [1] ${passagePlace(passage)}`,
    usedRefs: [passage.ref],
    markers: { [passage.ref]: 1 },
    quotes: { [passage.ref]: rows.map((r) => r.text).join(' ') },
  };
  // What names the figure: the rows' labels and sections, the columns' labels, the table's title and header.
  const named = [grid.title, grid.header, ...rows.flatMap((r) => [r.label, r.section]), ...found.cells.map((c) => c.column.label)].filter(Boolean).join(' ');
  // What was read: the cited passage, with the rest of the table's run when it was split (`read`).
  const read = run.length > 1 ? { ...passage, text: run.map((p) => p.text).join('\n') } : passage;
  return { answer, computed: found.computed !== undefined, lookup: found.operation === 'lookup', named, passage, read };
}

function fires(found: TableAnswer, question: string): boolean {
  // A question about the table's shape (its periods, a section's items) says "included", "components" as such.
  if (found.operation === 'periods' || found.operation === 'items' || (found.operation === 'count' && found.computed === undefined)) return true;
  // A word of the rows' own labels ("Tax related accruals", "Costs included in inventory") asks nothing else.
  const labels = new Set(found.cells.flatMap((c) => c.row.label.toLowerCase().split(/[^\p{L}]+/u)));
  // Word by word, a compound's parts too ("Tax-related accruals" asks nothing "related").
  const asked = ASKS_CHANGE_BETWEEN.test(question) ? question.replace(/^\s*how\s+\w+/i, '') : question;
  if (ASKS_OTHER.test(asked.split(/[^\p{L}]+/u).filter((w) => !labels.has(w.toLowerCase())).join(' ')) || ASKS_MEANING.test(question)) return false;
  return found.operation !== 'lookup' || (found.confidence >= LOOKUP_CONFIDENCE && (ASKS_FIGURE.test(question.trim()) || TERSE_FIGURE.test(question.trim())) && (NAMES_FIGURE.test(question) || ASKS_PAST.test(question) || namesColumn(found, question)));
}

/** The question names the column of the figure found by the column's words ("… due in more than 5 years"). */
function namesColumn(found: TableAnswer, question: string): boolean {
  const keys = keysOf(found.cells[0]?.column.label ?? '');
  const asked = new Set(keysOf(question));
  return keys.length > 0 && keys.every((k) => asked.has(k));
}

/**
 * The table's answer, then the quotes of the sentence answer under "Also found", renumbered after the table's source
 * (a quote of the table's own passage keeps its number, [1]). A quote of that passage leaves out the rows and header
 * the table's quote already shows, and goes when nothing else is left: what else was found, not the answer again.
 */
export function withAlsoFound(table: Answer, quoted: Answer): Answer {
  const [body, sources = ''] = quoted.text.split('\n\nSources: ');
  if (quoted.text === NOT_FOUND_ANSWER || !body.includes('“') || quoted.usedRefs.length === 0) return table;
  const [tableBody, tableSources] = table.text.split('\n\nSources: ');
  const shown = new Set(/“(.*)” \[1\]/s.exec(tableBody)?.[1].split(' | '));
  const tableRef = table.usedRefs[0];
  const refsOf = (n: number) => Object.entries(quoted.markers ?? {}).filter(([, m]) => m === n).map(([ref]) => ref);
  const quotes = [...body.slice(body.indexOf('“')).matchAll(QUOTE)]
    .map(([, text, n]) => ({ text: refsOf(Number(n)).includes(tableRef) ? unshown(text, shown) : text, n: Number(n) }))
    .filter((q) => q.text);
  const renumber = new Map<number, number>();
  let next = 2;
  for (const { n } of quotes) if (!renumber.has(n)) renumber.set(n, refsOf(n).includes(tableRef) ? 1 : next++);
  if (quotes.length === 0) return table;
  const also = quotes.map((q) => `“${q.text}” [${renumber.get(q.n)}]`).join(' ');
  const listed = sources.split('; ').flatMap((entry) => {
    const m = /^\[(\d+)\] (.*)$/.exec(entry);
    const n = m && renumber.get(Number(m[1]));
    return m && n && n !== 1 ? [`[${n}] ${m[2]}`] : [];
  });
  const kept = [...renumber.keys()].flatMap(refsOf);
  const markers = { ...Object.fromEntries(kept.map((ref) => [ref, renumber.get(quoted.markers![ref])!])), ...table.markers };
  const quoteTexts: Record<string, string> = Object.fromEntries(kept.flatMap((ref) => (quoted.quotes?.[ref] ? [[ref, quoted.quotes[ref]]] : [])));
  for (const [ref, text] of Object.entries(table.quotes ?? {})) quoteTexts[ref] = quoteTexts[ref] ? `${text} ${quoteTexts[ref]}` : text;
  return {
    text: `${tableBody}\n\nAlso found: ${also}\n\nSources: ${[tableSources, ...listed].join('; ')}`,
    usedRefs: [...new Set([...table.usedRefs, ...kept])],
    markers,
    quotes: quoteTexts,
    ...(quoted.skills && { skills: quoted.skills }),
  };
}

/** A quote and the number of its source, as the sentence answer writes them: “…” [2]. */
const QUOTE = /“(.*?)” \[(\d+)\]/gs;

/**
 * A quote without the rows and header the table's quote shows (`shown`): its parts are kept apart by " | ", and a row
 * quoted under its header reads "header … row". A row kept right after dropped ones keeps their header.
 */
function unshown(quote: string, shown: ReadonlySet<string>): string {
  const kept: string[] = [];
  let header: string | undefined;
  for (const part of quote.split(' | ')) {
    const at = part.indexOf(' … ');
    const [head, row] = at > 0 ? [part.slice(0, at), part.slice(at + 3)] : [undefined, part];
    if (shown.has(row) || shown.has(part)) {
      header = head ?? (isTableRow(row) ? header : row);
      continue;
    }
    kept.push(header && !head && isTableRow(row) ? `${header} … ${row}` : part);
    header = undefined;
  }
  return kept.join(' | ');
}
