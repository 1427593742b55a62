import type { ExtractedPage } from '../domain/model.js';
import { countWords, splitSentences } from './text.js';

export interface ChunkingOptions {
  /** A chunk closes once it reaches this many words (a single longer sentence is split). */
  targetWords: number;
  /** Sentences of the previous chunk repeated at the start of the next, so an answer spanning the cut is kept whole. */
  overlapSentences: number;
}

/** About a paragraph: on the SQuAD training questions 150 words retrieved and answered better than 80–120 (bench/train-answerer.ts). */
export const DEFAULT_CHUNKING: ChunkingOptions = { targetWords: 150, overlapSentences: 1 };

export interface DraftChunk {
  page: number;
  ordinal: number;
  text: string;
}

/**
 * Sentence-aware chunking that keeps page numbers: chunks never cross a page, so each cites exactly one page.
 * A paragraph break (blank line) closes a chunk once it holds a quarter of the target, so topics stay apart while
 * headings and one-line paragraphs join what follows; overlap repeats sentences only within a paragraph.
 */
export function chunkPages(pages: ExtractedPage[], options: ChunkingOptions = DEFAULT_CHUNKING): DraftChunk[] {
  const chunks: DraftChunk[] = [];
  for (const page of pages) {
    const paragraphs = page.text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
    let current: string[] = [];
    let words = 0;
    /** Sentences already emitted in a chunk that `current` repeats as overlap. */
    let carried = 0;
    const emit = () => {
      if (current.length > carried) chunks.push({ page: page.page, ordinal: chunks.length, text: current.join(' ') });
    };
    for (const paragraph of paragraphs) {
      for (const sentence of splitLongSentence(splitSentences(paragraph), options.targetWords)) {
        current.push(sentence);
        words += countWords(sentence);
        if (words >= options.targetWords) {
          emit();
          // Carry overlap only when it is small next to the target, so chunks keep advancing.
          const keep = options.overlapSentences > 0 ? current.slice(-options.overlapSentences) : [];
          const keepWords = keep.reduce((n, s) => n + countWords(s), 0);
          current = keepWords < options.targetWords / 2 ? keep : [];
          words = current.length > 0 ? keepWords : 0;
          carried = current.length;
        }
      }
      if (words - carriedWords(current, carried) >= options.targetWords / 4) {
        emit();
        current = [];
        words = 0;
        carried = 0;
      } else if (carried > 0 && current.length === carried) {
        // Only overlap is left at the paragraph's end: it belongs to the chunk already emitted.
        current = [];
        words = 0;
        carried = 0;
      }
    }
    emit();
  }
  return chunks;
}

function carriedWords(current: string[], carried: number): number {
  return current.slice(0, carried).reduce((n, s) => n + countWords(s), 0);
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
