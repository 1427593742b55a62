/**
 * The overview answer on SQuAD: each article alone in a session (as a PDF: its title, then its paragraphs), asked
 * "What is this document about?" with the embedded (extractive) answerer. An answer holds when it is not "not found"
 * and every sentence of it is a sentence of the article's first page or its title. Prints that share.
 * `npx tsx bench/overview.ts`.
 */
import fs from 'node:fs';
import { DEFAULT_EXTRACTION_SETTINGS } from '../adapters/extraction/child-process-document-reader.js';
import { openPdfPageSource } from '../adapters/extraction/open-pdf-page-source.js';
import { splitSentences } from '../core/rag/text.js';
import { corpusPath, exitUnlessCorpus } from '../test/support/paths.js';
import { startTestService } from '../test/support/test-service.js';
import { articlePdf, readSquad } from './squad-pdfs.js';

const QUESTION = 'What is this document about?';

exitUnlessCorpus('bench/overview.ts');
/** Letters and digits only, lower case: the PDF's line breaks, hyphens and WinAnsi substitutions do not count. */
const plain = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

const squad = readSquad(fs.readFileSync(corpusPath('squad/squad-v1.1-dev-part-a.json'), 'utf8'));
const t = await startTestService();
try {
  const api = await t.as('overview-bench');
  let held = 0;
  let notFound = 0;
  const misses: string[] = [];
  let sample = '';
  const started = performance.now();
  for (const article of squad.articles) {
    const pdf = await articlePdf(article);
    // A copy: pdf.js takes over (detaches) the buffer it is given.
    const source = await openPdfPageSource('pdfjs', pdf.bytes.slice(), { maxPdfImagePixels: DEFAULT_EXTRACTION_SETTINGS.maxPdfImagePixels });
    const firstPage = await source.text(1).finally(() => source.close());
    const sessionId = await api.createSession(article.title);
    const { jobId } = await api.uploadAndIngest(sessionId, `${article.title}.pdf`, pdf.bytes, 'application/pdf');
    const job = await api.waitForJob(jobId, 600_000);
    if (job.status !== 'completed') throw new Error(`${article.title}: ingestion ${job.status} ${job.error ?? ''}`);
    const res = await api.post('/api/v1/chat/completions', { sessionId, message: QUESTION });
    if (res.status !== 200) throw new Error(`${article.title}: ${res.status} ${res.text}`);
    const answer: string = res.body.data;
    sample ||= `${article.title}: ${answer}`;
    const page = plain(`${pdf.sanitize(article.title)} ${firstPage}`);
    const sentences = splitSentences(answer);
    if (answer.startsWith('I could not find')) notFound++;
    else if (sentences.length > 0 && sentences.every((s) => page.includes(plain(s)))) held++;
    else misses.push(`${article.title}: ${answer.slice(0, 300)}`);
  }
  const n = squad.articles.length;
  if (misses.length > 0) console.log(`Answers not (only) from page 1 or the title:\n${misses.join('\n')}\n`);
  console.log(`Sample answer: ${sample}\n`);
  console.log(`Overview answers ("${QUESTION}"), ${n} SQuAD articles, one per session, extractive answerer`);
  console.log(`  answered from the article's first page or title  ${(held / n).toFixed(3)} (${held} of ${n})`);
  console.log(`  "not found"                                       ${notFound} of ${n}`);
  console.log(`  time (ingest + ask, all articles)                 ${Math.round((performance.now() - started) / 1000)} s`);
} finally {
  await t.close();
}
