import fs from 'node:fs';
import path from 'node:path';
import type { ApiClient } from '../test/support/api-client.js';
import type { TestService } from '../test/support/test-service.js';
import { textPdf } from '../test/support/make-pdf.js';

export interface SquadQuestion {
  id: string;
  question: string;
  answers: string[];
  article: number;
  paragraph: string;
}

/**
 * SQuAD split by article, so the answerer's fitted weights are judged on text they never saw: the 24 articles shuffled
 * with seed 2026 (metrics.seededRandom), the first 16 to fit the weights (bench/train-answerer.ts), the other 8 (1610
 * questions) for the reported figures (bench/quality.ts). Every article is still ingested, as distractors.
 */
export const SQUAD_SPLIT = {
  train: ['Super Bowl 50', 'Warsaw', 'Teacher', '1973 oil crisis', 'Apollo program', 'Packet switching', 'Black Death', 'Newcastle upon Tyne', 'Construction', 'Harvard University', 'Jacksonville, Florida', 'University of Chicago', 'Prime number', 'Imperialism', 'French and Indian War', 'Force'],
  report: ['Victoria (Australia)', 'Oxygen', 'European Union law', 'Geology', 'Genghis Khan', 'Immune system', 'Civil disobedience', 'Islamism'],
} as const;

/** The questions of one part of SQUAD_SPLIT. */
export function questionsOf(squad: { articles: SquadArticle[]; questions: SquadQuestion[] }, part: keyof typeof SQUAD_SPLIT): SquadQuestion[] {
  const titles = new Set<string>(SQUAD_SPLIT[part]);
  const articles = new Set(squad.articles.flatMap((a, i) => (titles.has(a.title) ? [i] : [])));
  if (articles.size !== titles.size) throw new Error(`SQuAD split names articles that are not in the file (${part})`);
  return squad.questions.filter((q) => articles.has(q.article));
}

export interface SquadArticle {
  title: string;
  paragraphs: string[];
}

interface RawSquad {
  data: { title: string; paragraphs: { context: string; qas: { id: string; question: string; answers: { text: string }[] }[] }[] }[];
}

export function readSquad(json: string): { articles: SquadArticle[]; questions: SquadQuestion[] } {
  const raw = JSON.parse(json) as RawSquad;
  const articles: SquadArticle[] = [];
  const questions: SquadQuestion[] = [];
  raw.data.forEach((article, a) => {
    articles.push({ title: article.title.replace(/_/g, ' '), paragraphs: article.paragraphs.map((p) => p.context) });
    for (const p of article.paragraphs) {
      for (const qa of p.qas) {
        questions.push({ id: qa.id, question: qa.question, answers: qa.answers.map((x) => x.text), article: a, paragraph: p.context });
      }
    }
  });
  return { articles, questions };
}

/** One article as a PDF: its title, then its paragraphs. */
export function articlePdf(article: SquadArticle) {
  return textPdf({ title: article.title, paragraphs: article.paragraphs });
}

/**
 * Uploads and ingests one PDF per article into the session over HTTP (named `NN-Title.pdf`), waits for every job,
 * and throws when one does not complete. Returns the finished jobs, in article order.
 */
export async function ingestArticles(api: ApiClient, sessionId: string, articles: SquadArticle[], pdfs: { bytes: Uint8Array }[]) {
  const jobs: string[] = [];
  for (const [i, pdf] of pdfs.entries()) {
    const name = `${String(i + 1).padStart(2, '0')}-${articles[i].title.replace(/[^\w]+/g, '-')}.pdf`;
    jobs.push((await api.uploadAndIngest(sessionId, name, pdf.bytes, 'application/pdf')).jobId);
  }
  const results = await Promise.all(jobs.map((id) => api.waitForJob(id, 600_000)));
  const failed = results.filter((j) => j.status !== 'completed');
  if (failed.length > 0) throw new Error(`ingestion failed: ${JSON.stringify(failed)}`);
  return results;
}

/**
 * The session holding every article in the service whose data folder is `dataDir`: ingested on the first run, then
 * found again through a marker file, so fitting and dumping scripts re-run in seconds on TRAIN_DATA_DIR.
 */
export async function squadSession(test: TestService, dataDir: string, articles: SquadArticle[], pdfs: { bytes: Uint8Array }[]): Promise<string> {
  const marker = path.join(dataDir, 'squad-session-id');
  if (fs.existsSync(marker)) return fs.readFileSync(marker, 'utf8');
  const api = await test.as('train-user');
  const sessionId = await api.createSession('SQuAD training');
  await ingestArticles(api, sessionId, articles, pdfs);
  fs.writeFileSync(marker, sessionId);
  return sessionId;
}
