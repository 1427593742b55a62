import { passagePlace, type Answer, type AnswerRequest } from '../../core/index.js';
import { evaluate, itemsOf } from './financial-formula.js';
import { computedFigureRequest, type AmountUnit, type FigureRequest } from './financial-metrics.js';
import { lookUp, statementRows, type FoundValue } from './statement-lookup.js';

/**
 * A figure no quotation holds (a ratio, an average over years, a margin, a change between years), computed from the
 * statement rows the retrieved passages hold: the formula from the question's definition or the textbook one
 * (financial-metrics.ts), each line item's value for each year it needs (statement-lookup.ts). The answer
 * gives the figure, the formula, and the rows it used quoted under their column years, so it stays grounded and its
 * sources name the statement pages. Undefined (the caller answers as usual) when any input is missing or ambiguous.
 */
export function computedFigureAnswer(request: AnswerRequest): Answer | undefined {
  const figure = computedFigureRequest(request.question);
  if (!figure) return undefined;
  const rows = statementRows(request.contexts);
  const found = new Map<string, FoundValue>();
  for (const { item, year } of itemsOf(figure.expr)) {
    const value = lookUp(rows, item, year);
    if (!value) return undefined;
    found.set(`${item.key}@${year}`, value);
  }
  const units = new Set([...found.values()].map((f) => f.row.unit).filter(Boolean));
  // Lines of tables in different units (one in thousands, one in millions) would not add up.
  if (units.size > 1) return undefined;
  const raw = evaluate(figure.expr, (item, year) => found.get(`${item.key}@${year}`)?.value);
  if (raw === undefined || !Number.isFinite(raw)) return undefined;
  const tableUnit = [...units][0];
  const figureText = formatFigure(figure, raw, tableUnit);
  const { text, markers, quotes } = render([...found.values()]);
  return { text: `${figure.metric}: ${figureText}, computed as ${figure.formula} from ${text}`, usedRefs: refsOf(found), markers, quotes };
}

const UNIT_SCALE: Record<AmountUnit, number> = { thousands: 1e3, millions: 1e6, billions: 1e9 };

/** The figure as the question asks for it: a percentage, in the unit asked, rounded as asked. */
export function formatFigure(figure: Pick<FigureRequest, 'percent' | 'decimals' | 'amount' | 'unit'>, raw: number, tableUnit?: AmountUnit): string {
  let value = figure.percent ? raw * 100 : raw;
  let unit = tableUnit;
  if (figure.amount && figure.unit && tableUnit && figure.unit !== tableUnit) {
    value = (value * UNIT_SCALE[tableUnit]) / UNIT_SCALE[figure.unit];
    unit = figure.unit;
  }
  const decimals = figure.decimals ?? (figure.amount && unit === tableUnit && Number.isInteger(value) ? 0 : 2);
  const text = value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  if (figure.percent) return `${text}%`;
  return figure.amount && unit ? `${text} (in ${unit})` : text;
}

function refsOf(found: Map<string, FoundValue>): string[] {
  return [...new Set([...found.values()].map((f) => f.row.passage.ref))];
}

/** The rows used, each once, under their column years, numbered by page, then the sources: “2016 2017 … Inventories 11,461 16,047” [1]. */
function render(found: FoundValue[]): Required<Pick<Answer, 'text' | 'markers' | 'quotes'>> {
  const pages: string[] = [];
  const quotes: string[] = [];
  const markers: Record<string, number> = {};
  const quoted: Record<string, string> = {};
  const seen = new Set<string>();
  for (const { row } of found) {
    if (seen.has(`${row.passage.ref}\u0000${row.text}`)) continue;
    seen.add(`${row.passage.ref}\u0000${row.text}`);
    const page = passagePlace(row.passage);
    if (!pages.includes(page)) pages.push(page);
    markers[row.passage.ref] = pages.indexOf(page) + 1;
    quoted[row.passage.ref] = quoted[row.passage.ref] ? `${quoted[row.passage.ref]} ${row.text}` : row.text;
    quotes.push(`“${row.header} … ${row.text}” [${markers[row.passage.ref]}]`);
  }
  return { text: `${quotes.join(' ')}\n\nSources: ${pages.map((p, i) => `[${i + 1}] ${p}`).join('; ')}`, markers, quotes: quoted };
}
