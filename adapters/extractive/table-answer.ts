/**
 * A figure question answered from the passages' tables read as rows × columns (core/rag/tables): the direct line
 * first ("Consolidated Net Income, 2019: $8,985 million", or the computation asked: "Percentage change in … : 38.74%
 * ((8,985 − 6,476) / 6,476 = 38.74%)"), then the rows it read, quoted under their column header.
 */
import { answerFromTables, NOT_FOUND_ANSWER, passagePlace, readTableGrids, splitUnits, type Answer, type AnswerRequest, type ContextPassage, type TableAnswer, type TableGrid } from '../../core/index.js';

/**
 * Below this row match a plain look-up is left to the sentence ranking: a question that shares a label's words may
 * still ask something else. Computations need the same match but ask for a figure by their words.
 */
const LOOKUP_CONFIDENCE = 0.75;
/** A question that asks for a figure: what is / how much / how many, not why, who, when or a description. */
const ASKS_FIGURE = /^(?:(?:in|for|as of|at)\b[^,?]{0,40},\s*)?(?:what\s+(?:is|was|were|are|will be)\b|how\s+(?:much|many)\b)/i;
const ASKS_OTHER = /\b(?:why|reasons?|describe|explain|means?|meaning|purpose|how (?:did|does|is|was|were|are)|led to|lead to|caused?|causes|driven|drove|influenced|relates?|related|represented|represents?|excluded|excludes|included|includes|consists?|comprises?|components|due to|attributable|affected)\b/i;
/** A plain look-up names the period or the figure it wants: "What is Trade receivables?" asks what they are. */
const NAMES_FIGURE = /\b(?:19|20)\d\d\b|\b(?:amount|value|total|balance|sum|figure|how much|how many|number of|price|cost|costs)\b/i;

export function tableAnswer(request: AnswerRequest): Answer | undefined {
  return tableAnswerRead(request)?.answer;
}

/** The table's answer and what it did: a figure computed from cells is surer than a skill's own reading of the rows. */
export function tableAnswerRead(request: AnswerRequest): { answer: Answer; computed: boolean } | undefined {
  const grids: TableGrid[] = [];
  const passageOf = new Map<TableGrid, ContextPassage>();
  for (const passage of request.contexts) {
    for (const grid of readTableGrids(splitUnits(passage.text))) {
      grids.push(grid);
      passageOf.set(grid, passage);
    }
  }
  const found = answerFromTables(request.question, grids);
  if (!found || !fires(found, request.question)) return undefined;
  const grid = found.cells[0].grid;
  const passage = passageOf.get(grid)!;
  const rows = [...new Set(found.cells.map((c) => c.row))];
  const quote = [grid.header, ...rows.map((r) => r.text)].filter(Boolean).join(' | ');
  const answer = {
    text: `${found.line}\n\n“${quote}” [1]\n\nSources: [1] ${passagePlace(passage)}`,
    usedRefs: [passage.ref],
    markers: { [passage.ref]: 1 },
    quotes: { [passage.ref]: rows.map((r) => r.text).join(' ') },
  };
  return { answer, computed: found.computed !== undefined };
}

function fires(found: TableAnswer, question: string): boolean {
  // A question about the table's shape (its periods, a section's items) says "included", "components" as such.
  if (found.operation === 'periods' || found.operation === 'items' || (found.operation === 'count' && found.computed === undefined)) return true;
  // A word of the rows' own labels ("Tax related accruals", "Costs included in inventory") asks nothing else.
  const labels = new Set(found.cells.flatMap((c) => c.row.label.toLowerCase().split(/[^\p{L}]+/u)));
  if (ASKS_OTHER.test(question.split(/\s+/).filter((w) => !labels.has(w.toLowerCase().replace(/[^\p{L}]/gu, ''))).join(' '))) return false;
  return found.operation !== 'lookup' || (found.confidence >= LOOKUP_CONFIDENCE && ASKS_FIGURE.test(question.trim()) && NAMES_FIGURE.test(question));
}

/**
 * The table's answer, then the quotes of the sentence answer under "Also found", renumbered after the table's source
 * (a quote of the table's own passage keeps its number, [1]).
 */
export function withAlsoFound(table: Answer, quoted: Answer): Answer {
  const [body, sources = ''] = quoted.text.split('\n\nSources: ');
  const start = body.indexOf('“');
  if (quoted.text === NOT_FOUND_ANSWER || start < 0 || quoted.usedRefs.length === 0) return table;
  const tableRef = table.usedRefs[0];
  const renumber = new Map<number, number>();
  let next = 2;
  for (const [ref, n] of Object.entries(quoted.markers ?? {}).sort((a, b) => a[1] - b[1])) {
    if (!renumber.has(n)) renumber.set(n, ref === tableRef ? 1 : next++);
  }
  // The sentence answer's own "Also found" joins this one (one list of what else was found).
  const also = body.slice(start).replace(/\n\nAlso found: /g, ' ').replace(/\[(\d+)\]/g, (_, n: string) => `[${renumber.get(Number(n)) ?? n}]`);
  const listed = sources.split('; ').flatMap((entry) => {
    const m = /^\[(\d+)\] (.*)$/.exec(entry);
    const n = m && renumber.get(Number(m[1]));
    return m && n && n !== 1 ? [`[${n}] ${m[2]}`] : [];
  });
  const [tableBody, tableSources] = table.text.split('\n\nSources: ');
  const markers = { ...Object.fromEntries(Object.entries(quoted.markers ?? {}).map(([ref, n]) => [ref, renumber.get(n) ?? n])), ...table.markers };
  const quotes = { ...quoted.quotes };
  for (const [ref, text] of Object.entries(table.quotes ?? {})) quotes[ref] = quotes[ref] ? `${text} ${quotes[ref]}` : text;
  return {
    text: `${tableBody}\n\nAlso found: ${also}\n\nSources: ${[tableSources, ...listed].join('; ')}`,
    usedRefs: [...new Set([...table.usedRefs, ...quoted.usedRefs])],
    markers,
    quotes,
    ...(quoted.skills && { skills: quoted.skills }),
  };
}
