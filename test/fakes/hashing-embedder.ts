import type { Embedder } from '../../core/ports/embedder.js';
import { STOPWORDS, wordTokens } from '../../core/rag/text.js';

export interface HashingEmbedderOptions {
  /** Vector length (default 256). */
  dimensions?: number;
  /** Leave English function words out (default true), so "the" and "of" do not make unrelated texts look alike. */
  dropStopwords?: boolean;
}

/**
 * A deterministic stand-in for an embedding model: the lower-case word tokens of a text are feature-hashed into a
 * fixed number of dimensions (signed hashing, FNV-1a) and the vector is L2-normalised. Two texts are as close as
 * the words they share, so dense retrieval can be tested by word overlap without any model.
 *
 * A text without any token gets a fixed unit vector (a real model never answers a zero vector either).
 */
export class HashingEmbedder implements Embedder {
  readonly dimensions: number;
  private readonly dropStopwords: boolean;
  /** How many texts were embedded, for tests that check batching. */
  calls = 0;

  constructor(options: HashingEmbedderOptions = {}) {
    this.dimensions = options.dimensions ?? 256;
    this.dropStopwords = options.dropStopwords ?? true;
    if (!Number.isInteger(this.dimensions) || this.dimensions < 2) throw new Error('dimensions must be an integer ≥ 2');
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((text) => this.embed(text));
  }

  async embedQuery(text: string): Promise<number[]> {
    return this.embed(text);
  }

  /** Synchronous form, for building fixtures. */
  embed(text: string): number[] {
    this.calls += 1;
    const vector = new Array<number>(this.dimensions).fill(0);
    const all = wordTokens(text);
    const tokens = this.dropStopwords ? all.filter((t) => !STOPWORDS.has(t)) : all;
    for (const token of tokens.length > 0 ? tokens : all) {
      const h = fnv1a(token);
      vector[h % this.dimensions] += fnv1a(token, 0x9e3779b9) & 1 ? 1 : -1;
    }
    let norm = 0;
    for (const v of vector) norm += v * v;
    if (norm === 0) {
      // No token (or every token cancelled out): a fixed direction instead of a zero vector.
      vector[0] = 1;
      return vector;
    }
    const scale = 1 / Math.sqrt(norm);
    return vector.map((v) => v * scale);
  }
}

/** 32-bit FNV-1a over the UTF-16 code units, optionally seeded. */
function fnv1a(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
