import type { Embedder } from '../../core/ports/embedder.js';

/** Vector length: enough that two common words rarely share a slot, small enough for SQLite's brute-force search. */
export const DEFAULT_HASHING_DIMENSIONS = 1024;

/**
 * Embeddings without a model: the hashing trick (feature hashing, as scikit-learn's HashingVectorizer). Each word and
 * each character trigram of a word is hashed (FNV-1a) to one of `dimensions` slots with a sign from another bit of the
 * hash, weighted by log(1 + count), and the vector is L2-normalised. Trigrams give partial credit to inflections and
 * misspellings ("statements" / "statement", "recieve" / "receive") that a whole-word lexical index misses.
 * Deterministic, in-process, nothing to download; a lexical signal in vector form, not a semantic one.
 */
export class HashingEmbedder implements Embedder {
  constructor(private readonly dimensions = DEFAULT_HASHING_DIMENSIONS) {
    if (!Number.isInteger(dimensions) || dimensions < 16) throw new RangeError('dimensions must be a whole number of at least 16');
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((text) => this.embed(text));
  }

  async embedQuery(text: string): Promise<number[]> {
    return this.embed(text);
  }

  private embed(text: string): number[] {
    const counts = new Map<number, number>();
    const add = (feature: string) => {
      const hash = fnv1a(feature);
      // The sign keeps collisions from only ever adding up: colliding features cancel as often as they reinforce.
      const slot = (hash >>> 1) % this.dimensions;
      counts.set(slot * 2 + (hash & 1), (counts.get(slot * 2 + (hash & 1)) ?? 0) + 1);
    };
    for (const word of text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []) {
      add(`w:${word}`);
      const padded = `<${word}>`;
      for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`);
    }
    const vector = new Array<number>(this.dimensions).fill(0);
    for (const [key, count] of counts) vector[key >> 1] += (key & 1 ? -1 : 1) * Math.log1p(count);
    const norm = Math.hypot(...vector);
    if (norm === 0) {
      // No word (or every feature cancelled out): a fixed unit direction, as an index cannot normalise a zero vector.
      vector[0] = 1;
      return vector;
    }
    return vector.map((x) => x / norm);
  }
}

/** 32-bit FNV-1a over the UTF-16 code units: fast, well spread, the same on every machine. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
