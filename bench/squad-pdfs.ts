import { textPdf } from '../test/support/make-pdf.js';

export interface SquadQuestion {
  id: string;
  question: string;
  answers: string[];
  article: number;
  paragraph: string;
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
