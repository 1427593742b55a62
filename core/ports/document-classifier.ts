/**
 * Tells a document's kind (a name such as 'receipt', or 'other') from its pages as ingestion reads them, so that
 * knowledge of one kind of document (QueryPlanner, AnswerSkill) takes part only where a session holds such a
 * document. The kinds are the adapter's: the core stores and passes the name without reading it.
 */
export interface DocumentClassifier {
  /** Every kind it may tell; a document's `document_kind` tag must name one of them. */
  readonly kinds: readonly string[];
  /** A tally for one document. */
  start(): DocumentKindTally;
}

export interface DocumentKindTally {
  /** One more page's text, in page order. */
  addPage(text: string): void;
  /** The kind of the pages added so far. */
  kind(): string;
}
