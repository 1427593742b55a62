/**
 * `doc-chat/adapters/document-kinds`: a document's kind (receipt, financial report, form or instructions, letter,
 * other) told at ingestion from its pages' text and layout, for the answer plug-ins to declare what they serve.
 */
import type { DocumentClassifier, DocumentKindTally } from '../../core/index.js';
import { classifyFeatures, DOCUMENT_KINDS, MIN_KIND_SCORE, type DocumentKind, type KindVerdict } from './classify.js';
import { addFeatures, NO_FEATURES, pageFeatures, type PageFeatures } from './page-features.js';

export { classifyFeatures, DOCUMENT_KINDS, MIN_KIND_SCORE, pageFeatures, type DocumentKind, type KindVerdict, type PageFeatures };

/** The verdict on whole texts, one per page (tests, tools). */
export function classifyPages(pages: readonly string[]): KindVerdict {
  return classifyFeatures(pages.map(pageFeatures).reduce(addFeatures, NO_FEATURES));
}

/** Counts each page's features as it is read (nothing of its text is kept) and tells the kind at the end. */
export const documentKindClassifier: DocumentClassifier = {
  kinds: DOCUMENT_KINDS,
  start(): DocumentKindTally {
    let tally = NO_FEATURES;
    return {
      addPage: (text) => void (tally = addFeatures(tally, pageFeatures(text))),
      kind: () => classifyFeatures(tally).kind,
    };
  },
};
