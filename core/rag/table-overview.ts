import type { ContextPassage } from '../ports/llm.js';
import { splitRow, splitUnits } from './layout.js';
import { wordTokens } from './text.js';

/** Fewer rows than this in a document's opening passages: no table to tell it by. */
const MIN_ROWS = 3;
/** Row labels an overview names. */
const NAMED_ROWS = 3;
/** Words of the line over the rows that an overview quotes. */
const HEADER_WORDS = 12;

/**
 * A document that opens with a table and no prose (a statistics release, a spreadsheet printed to PDF), told by that
 * table: the line over its rows, which names its columns, and its first rows' labels ("A table under “State / Territory
 * Permit Handgun Long Gun …”, with rows such as Alabama, Alaska and Arizona."). Undefined when its opening passages
 * hold fewer than MIN_ROWS rows with a label.
 */
export function tableOverview(passages: ContextPassage[]): { text: string; ref: string } | undefined {
  const units = passages.flatMap((passage) => splitUnits(passage.text).map((unit) => ({ ...unit, passage })));
  const rows = units.filter((unit) => unit.kind === 'row');
  const labels = [...new Set(rows.map((row) => splitRow(row.text).label).filter((label) => /\p{L}/u.test(label)))];
  if (labels.length < MIN_ROWS) return undefined;
  const first = units.indexOf(rows[0]);
  const header = units.slice(0, first).reverse().find((unit) => unit.kind !== 'row' && /\p{L}/u.test(unit.text));
  const words = header?.text.split(/\s+/) ?? [];
  const quoted = header ? ` under “${words.slice(0, HEADER_WORDS).join(' ')}${words.length > HEADER_WORDS ? ' …' : ''}”` : '';
  const named = labels.slice(0, NAMED_ROWS);
  const list = `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  return { text: `A table${quoted}, with rows such as ${list}.`, ref: (header ?? rows[0]).passage.ref };
}

/**
 * A "sentence" that is a table's text run together, not one to lead an overview with: its words repeat more than they
 * vary (a header of names, "Handgun Long Gun *Other Handgun Long Gun *Other …"), or half its words or more are numbers
 * (a table of contents, "1 Foo 2 2 Bar 2 3 Baz 2 …").
 */
export function isTableText(text: string): boolean {
  const tokens = wordTokens(text);
  const words = tokens.filter((word) => /\p{L}/u.test(word));
  if (tokens.length >= 12 && tokens.length - words.length >= tokens.length / 2) return true;
  return words.length >= 12 && new Set(words).size < words.length / 2;
}
