import type { ExtractedPage } from '../domain/model.js';
import { countWords, splitSentences } from './text.js';

export interface ChunkingOptions {
  /** A chunk closes once it reaches this many words (a single longer sentence is split). */
  targetWords: number;
  /** Sentences of the previous chunk repeated at the start of the next, so an answer spanning the cut is kept whole. */
  overlapSentences: number;
}

export const DEFAULT_CHUNKING: ChunkingOptions = { targetWords: 120, overlapSentences: 1 };

export interface DraftChunk {
  page: number;
  ordinal: number;
  text: string;
}

/**
 * Sentence-aware chunking that keeps page numbers: chunks never cross a page, so each cites exactly one page.
 * Paragraph breaks (blank lines) close a chunk early when it is already half full, to keep topics apart.
 */
export function chunkPages(pages: ExtractedPage[], options: ChunkingOptions = DEFAULT_CHUNKING): DraftChunk[] {
  const chunks: DraftChunk[] = [];
  for (const page of pages) {
    const paragraphs = page.text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
    let current: string[] = [];
    let words = 0;
    const flush = () => {
      if (current.length === 0) return;
      chunks.push({ page: page.page, ordinal: chunks.length, text: current.join(' ') });
      const keep = options.overlapSentences > 0 ? current.slice(-options.overlapSentences) : [];
      // Carry overlap only when it is small next to the target, so chunks keep advancing.
      const keepWords = keep.reduce((n, s) => n + countWords(s), 0);
      current = keepWords < options.targetWords / 2 ? keep : [];
      words = current === keep ? keepWords : 0;
    };
    for (const paragraph of paragraphs) {
      for (const sentence of splitLongSentence(splitSentences(paragraph), options.targetWords)) {
        current.push(sentence);
        words += countWords(sentence);
        if (words >= options.targetWords) flush();
      }
      if (words >= options.targetWords / 2) flush();
    }
    // The tail of a page is its own chunk unless it is only the overlap carried from the previous one.
    if (current.length > 0 && !isOnlyOverlap(current, chunks, page.page)) {
      chunks.push({ page: page.page, ordinal: chunks.length, text: current.join(' ') });
    }
  }
  return chunks;
}

function isOnlyOverlap(current: string[], chunks: DraftChunk[], page: number): boolean {
  const last = chunks[chunks.length - 1];
  return last !== undefined && last.page === page && current.every((s) => last.text.includes(s));
}

/** Tables and OCR output can produce "sentences" of hundreds of words: cut them into target-sized pieces. */
function splitLongSentence(sentences: string[], targetWords: number): string[] {
  const out: string[] = [];
  for (const sentence of sentences) {
    const words = sentence.split(' ');
    if (words.length <= targetWords) {
      out.push(sentence);
      continue;
    }
    for (let i = 0; i < words.length; i += targetWords) out.push(words.slice(i, i + targetWords).join(' '));
  }
  return out;
}
