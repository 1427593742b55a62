/**
 * Table reading on every TAT-QA table, not only on the rows its questions ask about (`npm run bench:templates`): for
 * each table of a part, questions are generated from the table's own cells by fixed templates (a row's figure in a
 * year, its change, percentage change and average between two years, both years "respectively", the average over
 * three years or more, both of two rows, their sum, difference and ratio, a row's share of the total row, the year a row was
 * highest, a section's largest item and how many items exceed a threshold, how many years a row exceeded a threshold, a
 * section's components and how many), asked over HTTP of the table's report page on the embedded defaults, and scored
 * on the answer's lead: its first line must state the figure (any unit, rounding to two decimals), the count, or every
 * component. No template comes from a question; the generated gold is the cells' arithmetic, so a row the table prints
 * twice or a header the generator misreads can make a gold wrong: read the figures as a comparison between runs.
 *
 * TATQA_PART=dev (default) prints up to TEMPLATES_SHOW=N misses per template; TATQA_PART=validation prints figures only.
 */
import { startTestService } from '../test/support/test-service.js';
import { exitUnlessCorpus } from '../test/support/paths.js';
import { TATQA_PARTS, tatqaPart, type TatqaContext, type TatqaPart } from './tatqa-data.js';
import { cachedTatqaPagePdf, ingestReports } from './tatqa-page.js';
import { answerLead } from './tatqa-score.js';

const PART = (process.env.TATQA_PART ?? 'dev') as TatqaPart;
const SHOW = PART === 'dev' ? Number(process.env.TEMPLATES_SHOW ?? 0) : 0;
/** Rows asked about per table: its first ones with a figure in each year (TEMPLATES_ROWS=N to ask more). */
const ROWS_PER_TABLE = Number(process.env.TEMPLATES_ROWS ?? 3);
/** With TEMPLATES_ROWS set, two-row questions pair each row asked with the next, not only the first two. */
const EVERY_PAIR = process.env.TEMPLATES_ROWS !== undefined;

type Gold = { figures: number[] } | { count: number } | { labels: string[] } | { year: number } | { one: string; notOthers: string[] };
interface Generated {
  context: number;
  template: string;
  question: string;
  gold: Gold;
}

/** A cell's value: "$1,234", "(56)", "-7.5", "12%"; undefined for anything else. */
function cellValue(cell: string | undefined): number | undefined {
  const m = /^(\()?(-)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(\))?$/.exec((cell ?? '').replace(/[$€£\s]/g, '').replace(/%$/, ''));
  if (!m || Boolean(m[1]) !== Boolean(m[5])) return undefined;
  const value = Number(m[3].replace(/,/g, '') + (m[4] ?? ''));
  return m[1] || m[2] ? -value : value;
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const LABEL = /^[A-Za-z][A-Za-z ,'’&()/-]{3,60}$/;

/** The templates' questions for one table. */
export function templateQuestions(context: TatqaContext, index: number): Generated[] {
  const table = context.table.table;
  const out: Generated[] = [];
  const add = (template: string, question: string, gold: Gold) => out.push({ context: index, template, question, gold });
  const sections: Array<{ label: string; rows: string[][] }> = [];
  // A section: a label with no cells, over rows with figures, up to a total or the next such label.
  for (let i = 0; i < table.length; i++) {
    const label = (table[i][0] ?? '').trim().replace(/:$/, '');
    if (!LABEL.test(label) || table[i].slice(1).some((c) => (c ?? '').trim() !== '')) continue;
    const items: string[] = [];
    const itemRows: string[][] = [];
    let sum = 0;
    for (const row of table.slice(i + 1)) {
      const name = (row[0] ?? '').trim();
      if (!name || row.slice(1).every((c) => (c ?? '').trim() === '') || /^total/i.test(name)) break;
      // A row that sums the items above it is their total, whatever its name ("Gross deferred tax assets").
      const first = row.slice(1).map(cellValue).find((v) => v !== undefined);
      if (items.length >= 2 && first !== undefined && Math.abs(first - sum) <= Math.max(1, Math.abs(sum) * 0.001)) break;
      sum += first ?? 0;
      items.push(name);
      itemRows.push(row);
    }
    if (items.length < 2 || items.length > 8) continue;
    sections.push({ label, rows: itemRows });
    add('components', `What are the components of ${label}?`, { labels: items });
    add('how many components', `How many components are there under ${label}?`, { count: items.length });
  }
  // A column per year: its header (the first three lines) names one year, and no change or share.
  const width = Math.max(...table.map((r) => r.length));
  const columnOf = new Map<number, number>();
  for (let j = 1; j < width; j++) {
    const head = table.slice(0, 3).map((r) => r[j] ?? '').join(' ');
    const years = new Set(head.match(/\b(?:19|20)\d\d\b/g) ?? []);
    if (years.size !== 1 || /%|change|increase|decrease|variance/i.test(head)) continue;
    const year = Number([...years][0]);
    columnOf.set(year, columnOf.has(year) ? -1 : j); // a year heading two columns: neither is asked
  }
  const years = [...columnOf].filter(([, j]) => j > 0).map(([y]) => y).sort();
  if (years.length < 2) return out;
  const [earlier, recent] = years.slice(-2);
  const labels = table.map((r) => (r[0] ?? '').trim());
  const rows = table.filter((r, i) => LABEL.test(labels[i]) && labels.filter((l) => l.toLowerCase() === labels[i].toLowerCase()).length === 1
    && years.every((y) => cellValue(r[columnOf.get(y)!]) !== undefined));
  const value = (row: string[], year: number) => cellValue(row[columnOf.get(year)!])!;
  const name = (row: string[]) => row[0].trim().replace(/:$/, '');
  for (const row of rows.slice(0, ROWS_PER_TABLE)) {
    const [a, b] = [value(row, earlier), value(row, recent)];
    add('figure', `What was the ${name(row)} in ${recent}?`, { figures: [b] });
    add('earlier figure', `What was the ${name(row)} in ${earlier}?`, { figures: [a] });
    add('change', `What was the change in ${name(row)} from ${earlier} to ${recent}?`, { figures: [b - a] });
    if (a !== 0) add('percentage change', `What was the percentage change in ${name(row)} from ${earlier} to ${recent}?`, { figures: [round2(((b - a) / Math.abs(a)) * 100)] });
    add('average', `What was the average ${name(row)} in ${earlier} and ${recent}?`, { figures: [(a + b) / 2] });
    add('respectively', `What was the ${name(row)} in ${recent} and ${earlier} respectively?`, { figures: [b, a] });
    const values = years.map((y) => value(row, y));
    const sorted = [...new Set(values)].sort((x, y) => x - y);
    const threshold = sorted.length === values.length ? round2((sorted[0] + sorted[1]) / 2) : 0;
    if (threshold > 0 && !sorted.includes(threshold)) {
      add('years above', `How many years did ${name(row)} exceed ${threshold.toLocaleString('en-US')}?`, { count: values.filter((v) => v > threshold).length });
    }
  }
  // A section's largest item in the latest year (its items' figures all read).
  for (const section of sections.filter((x) => x.rows.length >= 3)) {
    const values = section.rows.map((r) => cellValue(r[columnOf.get(recent)!]));
    if (values.some((v) => v === undefined)) continue;
    const top = Math.max(...(values as number[]));
    if (values.filter((v) => v === top).length !== 1) continue;
    const names = section.rows.map((r) => r[0].trim());
    const one = names[values.indexOf(top)];
    add('largest component', `Which component of ${section.label} was the largest in ${recent}?`, { one, notOthers: names.filter((n) => n !== one && !one.includes(n)) });
    // How many items exceed a threshold between the largest two: one, with no tie.
    const sorted = [...(values as number[])].sort((x, y) => y - x);
    const threshold = round2((sorted[0] + sorted[1]) / 2);
    if (sorted[0] !== sorted[1] && threshold > 0) add('components above', `How many components of ${section.label} exceeded ${threshold.toLocaleString('en-US')} in ${recent}?`, { count: 1 });
  }
  // A row's share of the table's total row, and the year a row was higher (a comparison answered by a year).
  const totalRow = rows.find((r) => /^total\b/i.test(r[0].trim()));
  for (const row of rows.filter((r) => r !== totalRow).slice(0, totalRow ? ROWS_PER_TABLE : 0)) {
    const [part, whole] = [value(row, recent), value(totalRow!, recent)];
    if (whole !== 0 && part > 0 && whole > 0) add('share of total', `What percentage of ${name(totalRow!)} was ${name(row)} in ${recent}?`, { figures: [round2((part / whole) * 100)] });
  }
  for (const row of rows.slice(0, ROWS_PER_TABLE)) {
    const values = years.map((y) => value(row, y));
    const top = Math.max(...values);
    const asked = years.length === 2 ? 'higher' : 'the highest';
    if (values.filter((v) => v === top).length === 1) add('higher year', `In which year was ${name(row)} ${asked}?`, { year: years[values.indexOf(top)] });
  }
  if (years.length >= 3 && rows[0]) {
    const values = years.map((y) => value(rows[0], y));
    add('average of years', `What was the average ${name(rows[0])} from ${years[0]} to ${years.at(-1)}?`, { figures: [round2(values.reduce((s, v) => s + v, 0) / values.length)] });
  }
  const items = rows.filter((r) => !/^total\b/i.test(r[0].trim()));
  // Two rows: the first two items, or with TEMPLATES_ROWS set each item and the next among the rows asked.
  const pairs = EVERY_PAIR ? items.slice(0, ROWS_PER_TABLE).slice(1).map((r, i) => [items[i], r]) : [items.slice(0, 2)];
  for (const [first, second] of pairs) {
    if (!first || !second) continue;
    const [a, b] = [value(first, recent), value(second, recent)];
    add('two rows', `What were the ${name(first)} and ${name(second)} in ${recent}?`, { figures: [a, b] });
    add('sum of two rows', `What was the sum of ${name(first)} and ${name(second)} in ${recent}?`, { figures: [a + b] });
    add('difference of two rows', `What was the difference between ${name(first)} and ${name(second)} in ${recent}?`, { figures: [a - b] });
    if (b !== 0) add('ratio of two rows', `What was the ratio of ${name(first)} to ${name(second)} in ${recent}?`, { figures: [round2(a / b)] });
  }
  return out;
}

/** Whether an answer's lead states the gold: each figure (sign and unit aside, to two decimals), the count, each label, the year (the first it names). */
export function leadCarries(lead: string, gold: Gold): boolean {
  if ('labels' in gold) return gold.labels.every((l) => lead.toLowerCase().includes(l.toLowerCase()));
  if ('one' in gold) return lead.toLowerCase().includes(gold.one.toLowerCase()) && gold.notOthers.every((o) => !lead.toLowerCase().includes(o.toLowerCase()));
  if ('year' in gold) return /\b(?:19|20)\d\d\b/.exec(lead)?.[0] === String(gold.year);
  if ('count' in gold) return new RegExp(`^\\D*${gold.count}\\b`).test(lead);
  const numbers = [...lead.matchAll(/(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?/g)].map((m) => Number(m[1].replace(/,/g, '') + (m[2] ?? '')));
  return gold.figures.every((f) => numbers.some((n) => Math.abs(n - Math.abs(f)) <= Math.max(0.0051 * Math.abs(f), 0.051)));
}

async function main(): Promise<void> {
  exitUnlessCorpus('The TAT-QA templates bench');
  if (!TATQA_PARTS.includes(PART)) throw new Error(`TATQA_PART must be ${TATQA_PARTS.join(' or ')}`);
  const contexts = tatqaPart(PART);
  const generated = contexts.flatMap((c, i) => templateQuestions(c, i));
  const test = await startTestService({});
  try {
    const api = await test.as('templates-user');
    const sessions = await ingestReports(api, contexts.map((c) => c.table.uid), (i) => cachedTatqaPagePdf(contexts[i]));
    const byTemplate = new Map<string, { asked: number; right: number; misses: string[] }>();
    for (const q of generated) {
      const res = await api.ask(sessions[q.context], q.question);
      if (res.status !== 200) throw new Error(`chat: ${res.status} ${res.text}`);
      const lead = answerLead(res.body.data as string);
      const tally = byTemplate.get(q.template) ?? { asked: 0, right: 0, misses: [] };
      byTemplate.set(q.template, tally);
      tally.asked++;
      if (leadCarries(lead, q.gold)) tally.right++;
      else tally.misses.push(`    ${q.question} (${JSON.stringify(q.gold)})\n      → ${lead.slice(0, 160)}`);
    }
    const tables = new Set(generated.map((q) => q.context)).size;
    console.log(`TAT-QA ${PART}: ${generated.length} template questions on ${tables} of ${contexts.length} tables; the lead states the gold:`);
    for (const [template, t] of byTemplate) {
      console.log(`  ${template.padEnd(24)} ${(t.right / t.asked).toFixed(3)} (${t.right} of ${t.asked})`);
      for (const line of t.misses.slice(0, SHOW)) console.log(line);
    }
    const right = [...byTemplate.values()].reduce((n, t) => n + t.right, 0);
    console.log(`  ${'all'.padEnd(24)} ${(right / generated.length).toFixed(3)} (${right} of ${generated.length})`);
  } finally {
    await test.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
