import type { PageArea } from '../../core/ports/page-renderer.js';

/** A run of a page's characters, by index into the reader's own list of them: start included, end not. */
export interface CharRange {
  start: number;
  end: number;
}

/** Pieces of a passage shorter than this many letters and digits are not looked for: they would match anywhere. */
const MIN_PIECE = 12;
/** Part of a sentence is looked for when it holds this many letters and digits (its own words, rarer elsewhere). */
const MIN_RUN = 20;
/** Runs looked up for one passage at most (a page of 100,000 characters is scanned in ~0.1 ms). */
const MAX_LOOKUPS = 2000;

/** Letters and digits of a text, folded: decomposed (ligatures split, accents apart), accents dropped, lower case. */
function fold(text: string): string {
  return text.normalize('NFKD').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * Where a quoted passage lies among a page's characters (`chars[i]`: the text of the reader's character i; '' for
 * one it inserted). The two are compared on letters and digits only, folded (see fold): the passage comes from the
 * page's text after layout and normalisation (lines joined, a hyphen at a line's end dropped, running headers gone,
 * spaces collapsed), which the characters as drawn do not share. The passage is looked for in its parts between "…"
 * (where an excerpt left text out), each whole, else sentence by sentence, a sentence not found as its longest runs
 * of words on the page: a passage that goes on overleaf is found on this page as far as it goes, and a sentence or a
 * table row behind a heading from an earlier page is found without it. Ranges come in page order, overlapping ones
 * merged; [] when nothing is found.
 */
export function findPassage(chars: readonly string[], passage: string): CharRange[] {
  let folded = '';
  const owner: number[] = [];
  chars.forEach((text, index) => {
    const letters = fold(text);
    folded += letters;
    for (let i = 0; i < letters.length; i++) owner.push(index);
  });
  const found: CharRange[] = [];
  let from = 0;
  const look = (piece: string): boolean => {
    const key = fold(piece);
    if (key.length < MIN_PIECE) return false;
    // After the last piece found first (a passage reads on down the page), else anywhere.
    let at = folded.indexOf(key, from);
    if (at < 0) at = folded.indexOf(key);
    if (at < 0) return false;
    found.push(withPunctuation(chars, owner[at], owner[at + key.length - 1] + 1));
    from = at + key.length;
    return true;
  };
  // The longest run of a sentence's words the page holds, from the first word that starts one, then the same in what
  // follows it: a chunk's carried-over title or table header (text of an earlier page) in front of a sentence or a
  // table row, and text cut off behind (overleaf), leave the rest to be found. A run on the page holds every shorter
  // run it starts with, so the longest is found by halving.
  // Bounded, whatever the passage and the page: each lookup scans the page's text.
  let lookups = 0;
  const occurs = (words: string[]) => ++lookups <= MAX_LOOKUPS && folded.includes(fold(words.join('')));
  const lookLongest = (words: string[]): void => {
    for (let i = 0; i < words.length; i++) {
      let shortest = i + 1;
      while (shortest < words.length && fold(words.slice(i, shortest).join('')).length < MIN_RUN) shortest++;
      const long = fold(words.slice(i, shortest).join('')).length >= MIN_RUN;
      if (!long || !occurs(words.slice(i, shortest))) {
        // A short line of its own (a table row the quote joined to the next: "First Quarter $ 5.99 $ 8.40 Second …"),
        // as long as a piece: found whole, when the word after it breaks the run.
        const line = words.slice(i, shortest - 1);
        if (long && i === 0 && line.length > 0 && look(line.join(' '))) {
          lookLongest(words.slice(shortest - 1));
          return;
        }
        continue;
      }
      // Words i up to (not including) low occur on the page; no run ending after high does.
      let [low, high] = [shortest, words.length];
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if (occurs(words.slice(i, middle))) low = middle;
        else high = middle - 1;
      }
      look(words.slice(i, low).join(' '));
      lookLongest(words.slice(low));
      return;
    }
  };
  for (const part of passage.split('…')) {
    if (look(part)) continue;
    for (const sentence of part.split(/(?<=[.!?;:])\s+/)) if (!look(sentence)) lookLongest(sentence.split(/\s+/).filter(Boolean));
  }
  return merge(found);
}

/** A run widened by the marks touching it (a full stop, a closing quote; an opening one): they belong to its words. */
function withPunctuation(chars: readonly string[], start: number, end: number): CharRange {
  const touching = (text: string | undefined) => text !== undefined && text !== '' && !/\s/u.test(text) && fold(text) === '';
  while (touching(chars[start - 1])) start--;
  while (touching(chars[end])) end++;
  return { start, end };
}

function merge(ranges: CharRange[]): CharRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const merged: CharRange[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

/** An area and the way its line runs on the page as shown: across (most text), or down (text turned a quarter). */
export interface LineArea extends PageArea {
  down?: boolean;
}

/**
 * Areas next to each other on one line made one (a reader reports a line in pieces: per font, per text item, on a
 * turned page per character), in the order given: each marked line is one rectangle. Along a line running down the
 * page, x and y swap roles.
 */
export function joinLineAreas(areas: readonly LineArea[]): PageArea[] {
  const joined: LineArea[] = [];
  for (const next of areas) {
    const last = joined.at(-1);
    if (last && last.down === next.down && sameLine(last, next, next.down === true)) {
      joined[joined.length - 1] = { ...area(Math.min(last.x, next.x), Math.min(last.y, next.y),
        Math.max(last.x + last.width, next.x + next.width), Math.max(last.y + last.height, next.y + next.height)), down: last.down };
    } else joined.push(next);
  }
  return joined.map(({ x, y, width, height }) => ({ x, y, width, height }));
}

/** Whether two areas share most of the line's height (width, running down) and lie at most a word space apart. */
function sameLine(a: PageArea, b: PageArea, down: boolean): boolean {
  const [aAcross, aSize, aAlong, aLength] = down ? [a.x, a.width, a.y, a.height] : [a.y, a.height, a.x, a.width];
  const [bAcross, bSize, bAlong, bLength] = down ? [b.x, b.width, b.y, b.height] : [b.y, b.height, b.x, b.width];
  const overlap = Math.min(aAcross + aSize, bAcross + bSize) - Math.max(aAcross, bAcross);
  const gap = Math.max(aAlong, bAlong) - Math.min(aAlong + aLength, bAlong + bLength);
  return overlap >= SAME_LINE * Math.min(aSize, bSize) && gap <= LINE_GAP;
}

/** Two areas are on one line when they share this much of the lower one's height… */
const SAME_LINE = 0.5;
/** …and lie at most this far apart (a fraction of the page's side: a word space, not a column gap). */
const LINE_GAP = 0.015;

/** An area from its corners (fractions), kept on the page and rounded to 1/10,000. */
export function area(left: number, top: number, right: number, bottom: number): PageArea {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const round = (v: number) => Math.round(v * 10_000) / 10_000;
  const [x, y] = [clamp(left), clamp(top)];
  return { x: round(x), y: round(y), width: round(clamp(right) - x), height: round(clamp(bottom) - y) };
}
