/**
 * How well answers hold when a question is worded otherwise (`npm run bench:rewordings`): each TAT-QA question the
 * service answers as written (bench/tatqa.ts's scoring) is asked again in each rewording below that changes it, on its
 * own report, over HTTP on the embedded defaults; printed per rewording: how many answers still carry the gold answer.
 * The rewordings keep the meaning and are the kinds a person types ("What's", "% change", "2019 vs 2018", a few words
 * and a year, "According to the table, …"); none comes from a question. A mend found here is a wording, not a question's.
 *
 * TATQA_PART=dev (default) prints up to REWORDINGS_SHOW=N lost rewordings each; TATQA_PART=validation prints figures
 * only, as bench/tatqa.ts does. REWORDINGS=a,b runs only those.
 */
import { startTestService } from '../test/support/test-service.js';
import { exitUnlessCorpus } from '../test/support/paths.js';
import { TATQA_PARTS, tatqaPart, type TatqaPart } from './tatqa-data.js';
import { cachedTatqaPagePdf, ingestReports } from './tatqa-page.js';
import { carriesGold, withoutCandidates } from './tatqa-score.js';

const PART = (process.env.TATQA_PART ?? 'dev') as TatqaPart;
const SHOW = PART === 'dev' ? Number(process.env.REWORDINGS_SHOW ?? 0) : 0;
const ONLY = process.env.REWORDINGS?.split(',');
const lowerFirst = (q: string) => q.charAt(0).toLowerCase() + q.slice(1);
const upperFirst = (q: string) => q.charAt(0).toUpperCase() + q.slice(1);
/** A single year asked ("in 2019", not "in 2019 and 2018" nor "from 2018 to 2019"). */
const ONE_YEAR = /\b(?:in|for) (20\d\d)\b(?! and| to)/g;

/** "How many years did X exceed N?", its parts. */
const YEARS_EXCEEDED = /^How many years did (?:the )?(.+?) exceed (.+?)\?$/i;

/** "What was the change in X from 2018 to 2019?", its parts. */
const CHANGE_FROM_TO = /^What (?:is|was) the change in (?:the )?(.+?) (from|between) (20\d\d) (to|and) (20\d\d)\?$/;

export const REWORDINGS: Record<string, (question: string) => string> = {
  'was → is': (q) => q.replace(/^What was\b/, 'What is').replace(/^What were\b/, 'What are'),
  'is → was': (q) => q.replace(/^What is\b/, 'What was').replace(/^What are\b/, 'What were'),
  'lower case': (q) => q.toLowerCase(),
  'no question mark': (q) => q.replace(/\s*\?\s*$/, ''),
  'double spaces': (q) => q.replace(/ /g, '  '),
  "What's": (q) => q.replace(/^What is\b/, "What's"),
  'without "the"': (q) => q.replace(/^(What (?:is|was|are|were)) the\b/, '$1'),
  'How much was': (q) => q.replace(/^What (?:was|is) the (?:amount of |value of )?/i, 'How much was the '),
  'Please tell me:': (q) => `Please tell me: ${lowerFirst(q)}`,
  'According to the table,': (q) => `According to the table, ${lowerFirst(q)}`,
  '… in the report?': (q) => q.replace(/\?\s*$/, ' in the report?'),
  'Give me …': (q) => q.replace(/^What (?:is|was|are|were) (the .*?)\?$/, 'Give me $1.'),
  'a few words': (q) => q.replace(/^What (?:is|was|are|were) the (.*)$/, (_, rest: string) => upperFirst(rest)),
  'in → for 2019': (q) => q.replace(/\bin (20\d\d)\b/g, 'for $1'),
  'in fiscal 2019': (q) => q.replace(ONE_YEAR, 'in fiscal $1'),
  'in FY2019': (q) => q.replace(ONE_YEAR, 'in FY$1'),
  'in the year 2019': (q) => q.replace(ONE_YEAR, 'in the year $1'),
  'as of 2019': (q) => q.replace(/\bin (20\d\d)\b(?! and| to)/, 'as of $1'),
  'between → from … to': (q) => q.replace(/\bbetween (20\d\d) and (20\d\d)\b/, 'from $1 to $2'),
  'from … to → between': (q) => q.replace(/\bfrom (20\d\d) to (20\d\d)\b/, 'between $1 and $2'),
  '2019 vs 2018': (q) => q.replace(/\bfrom (20\d\d) to (20\d\d)\b/, '$2 vs $1'),
  'in 2019 compared to 2018': (q) => q.replace(/\bfrom (20\d\d) to (20\d\d)\b/, 'in $2 compared to $1'),
  'years swapped': (q) => q.replace(/\bin (20\d\d) and (20\d\d)\b/, 'in $2 and $1'),
  'without "respectively"': (q) => q.replace(/,?\s*respectively/, ''),
  'How did X change from … to …?': (q) => q.replace(CHANGE_FROM_TO, 'How did $1 change $2 $3 $4 $5?'),
  'By how much did X change …?': (q) => q.replace(CHANGE_FROM_TO, 'By how much did $1 change $2 $3 $4 $5?'),
  'growth rate of X': (q) => q.replace(/^What (?:is|was) the percentage change in (?:the )?/, 'What was the growth rate of '),
  '% change': (q) => q.replace(/\bpercentage change\b/i, '% change'),
  'percent change': (q) => q.replace(/\bpercentage change\b/i, 'percent change'),
  mean: (q) => q.replace(/\baverage\b/i, 'mean'),
  'In how many years was X above N?': (q) => q.replace(YEARS_EXCEEDED, 'In how many years was $1 above $2?'),
  'How many of the years had X over N?': (q) => q.replace(YEARS_EXCEEDED, 'How many of the years had $1 over $2?'),
  'For how many years was X more than N?': (q) => q.replace(YEARS_EXCEEDED, 'For how many years was $1 more than $2?'),
  'Which year had the higher X?': (q) => q.replace(/^In which year (?:was|were) (?:the )?(.+?) (higher|larger|greater|lower|smaller)\?$/i, 'Which year had the $2 $1?'),
};

async function main(): Promise<void> {
  exitUnlessCorpus('The TAT-QA rewordings bench');
  if (!TATQA_PARTS.includes(PART)) throw new Error(`TATQA_PART must be ${TATQA_PARTS.join(' or ')}`);
  const contexts = tatqaPart(PART);
  const test = await startTestService({});
  try {
    const api = await test.as('rewordings-user');
    const sessions = await ingestReports(api, contexts.map((c) => c.table.uid), (i) => cachedTatqaPagePdf(contexts[i]));
    const carries = async (context: number, question: string, gold: Parameters<typeof carriesGold>[1]) => {
      const res = await api.ask(sessions[context], question);
      if (res.status !== 200) throw new Error(`chat: ${res.status} ${res.text}`);
      return { ok: carriesGold(withoutCandidates(res.body.data as string), gold), answer: res.body.data as string };
    };
    const answered = [];
    for (const [context, c] of contexts.entries()) {
      for (const question of c.questions) if ((await carries(context, question.question, question)).ok) answered.push({ context, question });
    }
    const total = contexts.reduce((n, c) => n + c.questions.length, 0);
    console.log(`TAT-QA ${PART}: ${answered.length} of ${total} questions answered as written; each rewording asked of those it changes`);
    let asked = 0;
    let kept = 0;
    for (const [name, reword] of Object.entries(REWORDINGS)) {
      if (ONLY && !ONLY.includes(name)) continue;
      const lost: string[] = [];
      let changed = 0;
      for (const { context, question } of answered) {
        const worded = reword(question.question);
        if (worded === question.question) continue;
        changed++;
        const { ok, answer } = await carries(context, worded, question);
        if (!ok) lost.push(`    ${worded}\n      → ${answer.split('\n')[0].slice(0, 160)}`);
      }
      asked += changed;
      kept += changed - lost.length;
      console.log(`  ${name.padEnd(28)} ${changed === 0 ? '–' : `${((changed - lost.length) / changed).toFixed(3)} (${changed - lost.length} of ${changed})`}`);
      for (const line of lost.slice(0, SHOW)) console.log(line);
    }
    console.log(`  ${'all rewordings'.padEnd(28)} ${(kept / asked).toFixed(3)} (${kept} of ${asked})`);
  } finally {
    await test.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
