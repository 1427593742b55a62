import type { PageArea } from '../../core/ports/page-renderer.js';
import type { OcrLine } from './ocr-engine.js';
import { area, findPassage } from './passage-match.js';

/**
 * Where `passage` lies among the words OCR read on an image of `width` × `height` pixels (the page as shown, upright):
 * for each line the run of the passage touches, the box around its words there, as fractions of the image.
 */
export function findTextInOcrLines(lines: readonly OcrLine[], width: number, height: number, passage: string): PageArea[] {
  const chars: string[] = [];
  const wordOf: ({ line: number; word: number } | undefined)[] = [];
  lines.forEach(({ words }, line) => {
    words.forEach(({ text }, word) => {
      for (const char of text) chars.push(char), wordOf.push({ line, word });
      chars.push(' '), wordOf.push(undefined);
    });
    chars.push(''), wordOf.push(undefined); // a line's end: marks past it are not this run's
  });
  const areas: PageArea[] = [];
  for (const { start, end } of findPassage(chars, passage)) {
    const touched = new Map<number, { x0: number; y0: number; x1: number; y1: number }>();
    for (let i = start; i < end; i++) {
      const at = wordOf[i];
      if (!at) continue;
      const box = lines[at.line].words[at.word];
      const seen = touched.get(at.line);
      touched.set(at.line, seen
        ? { x0: Math.min(seen.x0, box.x0), y0: Math.min(seen.y0, box.y0), x1: Math.max(seen.x1, box.x1), y1: Math.max(seen.y1, box.y1) }
        : box);
    }
    for (const box of touched.values()) areas.push(area(box.x0 / width, box.y0 / height, box.x1 / width, box.y1 / height));
  }
  return areas.filter((a) => a.width > 0 && a.height > 0);
}
