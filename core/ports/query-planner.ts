import type { ChunkHit } from './vector-index.js';

/**
 * Knowledge of a kind of document that the ask flow consults before it searches (registered by configuration, e.g.
 * a plug-in under adapters/): the question in the documents' own wording for word-matching indexes, and extra
 * searches for passages the answer needs that the question's words alone would not find. The ask flow itself knows
 * retrieval, fusion, packing and answering only.
 */
export interface QueryPlanner {
  /** What it knows about, for logs (the plug-in's name). */
  readonly name: string;
  /**
   * The kinds of document it serves (DocumentClassifier's names): it is consulted only when the documents asked of hold
   * one of them. None: every document.
   */
  readonly kinds?: readonly string[];
  /** The question as a lexical (BM25) index should see it; the question unchanged when nothing applies. */
  lexicalQuery(question: string): string;
  /** Searches of the lexical indexes whose first kept hit is pinned among the passages; [] when none applies. */
  pinnedSearches(question: string): PinnedSearch[];
  /**
   * When the question asks about the documents it names as a whole (what a receipt lists): how many of each one's
   * opening chunks to pin among the passages, so that none of its lines is missed for holding no word of the
   * question. 0 (or no such method) when it does not.
   */
  wholeDocuments?(question: string): number;
}

export interface PinnedSearch {
  /** The lexical query. */
  text: string;
  /** Hits asked of each lexical index. */
  limit: number;
  /** The hits that hold what the search is for, best first (the first one is pinned). */
  holding(hits: ChunkHit[]): ChunkHit[];
  /**
   * Pin the first holding hit of each of up to this many documents, not only the first hit (default 1), searched in
   * every document, whichever the question names: for a line each of several documents has, when the question may ask
   * of all of them ("How much did I pay?" of a few receipts; the answerer tells which were asked of).
   */
  perDocument?: number;
  /**
   * Searched only when the question is about some of the session's documents (it names them; core/rag/document-prior.ts),
   * within those: a search for a kind of line every such document has (a receipt's total) would otherwise pin another
   * document's.
   */
  focusedOnly?: boolean;
}
