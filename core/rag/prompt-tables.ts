/**
 * The passages' tables for a model's prompt: each table read as rows × columns (core/rag/tables) and written as a
 * Markdown table (its title, a line naming its unit and scale, the header with its periods, one line per row), and the
 * figure the question asks computed from the cells and given as computed ("Computed from the cells of [1]: Percentage
 * change in Net income from 2018 to 2019: 38.74% ((8,985 − 6,476) / 6,476 = 38.74%)"). A model reads a table from a
 * page's flattened lines poorly and does arithmetic worse; the same parts that answer without a model serve it.
 * Pure functions: no model or I/O.
 */
import type { ContextPassage } from '../ports/llm.js';
import { tableTexts } from './chunking.js';
import { splitUnits } from './layout.js';
import { passagePlace } from './place.js';
import type { TableUnit } from './tables/figures.js';
import { answerFromTables, figuresByColumn } from './tables/table-answer.js';
import { readTableGrids, type TableGrid } from './tables/table-grid.js';

/** A table of the passages, with the passage it was read from. */
export interface PassageTable {
  passage: ContextPassage;
  grid: TableGrid;
}

/**
 * Below this row match a looked-up figure is not offered to the model as read (a question sharing a label's words may
 * ask something else); the model reads the table itself. A computation is offered at any match: the question asked for it.
 */
export const PROMPT_LOOKUP_CONFIDENCE = 0.75;

/** The tables of the passages, in the passages' order; a table the chunking split, whole, with the passage it starts in. */
export function passageTables(contexts: readonly ContextPassage[]): PassageTable[] {
  return tableTexts(contexts).flatMap(({ passage, text }) => readTableGrids(splitUnits(text)).map((grid) => ({ passage, grid })));
}

/**
 * What the prompt says of the passages' tables: each as Markdown, then the figure the question asks, read or computed
 * from the cells, with the passage it comes from. Undefined when the passages hold no table.
 */
export function tablesForPrompt(question: string, contexts: readonly ContextPassage[]): string | undefined {
  const tables = passageTables(contexts);
  if (tables.length === 0) return undefined;
  const parts = tables.map(({ passage, grid }) => markdownTable(grid, `[${passage.ref}] (${passagePlace(passage)})`));
  const figure = figureLine(question, tables);
  return [...parts, ...(figure ? [figure] : [])].join('\n\n');
}

/** "Computed from the cells of [1]: …" or "Read from the cells of [1]: …", or undefined when no row answers well enough. */
export function figureLine(question: string, tables: readonly PassageTable[]): string | undefined {
  const found = answerFromTables(question, tables.map((t) => t.grid));
  if (!found || (found.operation === 'lookup' && found.confidence < PROMPT_LOOKUP_CONFIDENCE)) return undefined;
  const ref = tables.find((t) => t.grid === found.cells[0].grid)?.passage.ref;
  const from = ref === undefined ? 'the cells' : `the cells of [${ref}]`;
  return `${found.computed && found.operation !== 'lookup' ? 'Computed from' : 'Read from'} ${from}: ${found.line}`;
}

/** One table in Markdown: "Table from <source>: <title>", its unit line, the header, a line per row. */
export function markdownTable(grid: TableGrid, source: string): string {
  const aligned = grid.rows.map((row) => figuresByColumn(grid, row)?.map((f) => f?.text ?? '') ?? row.figures.map((f) => f?.text ?? ''));
  const width = Math.max(grid.columns.length, ...aligned.map((cells) => cells.length));
  const header = Array.from({ length: width }, (_, i) => grid.columns[i]?.label ?? '');
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  const rows = grid.rows.map((row, i) => {
    const label = row.section && row.label ? `${row.label} (${row.section})` : row.label || row.section || '';
    return line([label, ...Array.from({ length: width }, (_, c) => aligned[i][c] ?? '')]);
  });
  return [
    `Table from ${source}${grid.title ? `: ${grid.title}` : ''}`,
    ...(grid.unit ? [`Unit: ${unitText(grid.unit)}`] : []),
    line(['', ...header]),
    `|---|${header.map(() => '---:').join('|')}|`,
    ...rows,
  ].join('\n');
}

/** "$, in millions", "percent", "in thousands". */
function unitText(unit: TableUnit): string {
  if (unit.percent) return 'percent';
  const scale = unit.scale ? `in ${unit.scale}s` : undefined;
  return [unit.currency, scale].filter(Boolean).join(', ') || 'as printed';
}

/** A cell's text as one Markdown cell: no pipe or line break of its own. */
function cell(text: string): string {
  return text.replace(/\|/g, '/').replace(/\s+/g, ' ').trim();
}
