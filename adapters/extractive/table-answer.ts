/**
 * A figure question answered from the passages' tables read as rows × columns (core/rag/tables): the direct line
 * first ("Consolidated Net Income, 2019: $8,985 million", or the computation asked: "Percentage change in … : 38.74%
 * ((8,985 − 6,476) / 6,476 = 38.74%)"), then the rows it read, quoted under their column header.
 */
import { answerFromTables, readTableGrids, splitUnits, type Answer, type AnswerRequest, type ContextPassage, type TableAnswer, type TableGrid } from '../../core/index.js';

/**
 * Below this row match a plain look-up is left to the sentence ranking: a question that shares a label's words may
 * still ask something else. Computations need the same match but ask for a figure by their words.
 */
const LOOKUP_CONFIDENCE = 0.75;
/** A question that asks for a figure: what is / how much / how many, not why, who, when or a description. */
const ASKS_FIGURE = /^(?:(?:in|for|as of|at)\b[^,?]{0,40},\s*)?(?:what\s+(?:is|was|were|are|will be)\b|how\s+(?:much|many)\b)/i;
const ASKS_OTHER = /\b(?:why|reason|reasons|describe|explain|mean|means|meaning|purpose|how (?:did|does|is|was|were|are))\b/i;

export function tableAnswer(request: AnswerRequest): Answer | undefined {
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
  return {
    text: `${found.line}\n\n“${quote}” [1]\n\nSources: [1] ${passage.filename}, page ${passage.page}`,
    usedRefs: [passage.ref],
    markers: { [passage.ref]: 1 },
    quotes: { [passage.ref]: rows.map((r) => r.text).join(' ') },
  };
}

function fires(found: TableAnswer, question: string): boolean {
  if (ASKS_OTHER.test(question)) return false;
  return found.operation !== 'lookup' || (found.confidence >= LOOKUP_CONFIDENCE && ASKS_FIGURE.test(question.trim()));
}
