import type { TagFilter } from '../domain/tags.js';
import type { VectorIndex } from '../ports/vector-index.js';
import { packContexts, type PackedContext } from '../rag/context.js';
import { OVERVIEW_CHUNKS_PER_DOCUMENT } from '../rag/overview.js';

/** Documents an overview covers at most (their opening passages share the context budget). */
const OVERVIEW_DOCUMENTS = 10;

/**
 * The passages an overview is drawn from: the opening chunks of each citable document of the session (that meets
 * the filters), in document order, within the usual character budget. Empty when the session has none.
 */
export async function overviewContext(
  index: VectorIndex,
  query: { sessionId: string; filters?: readonly TagFilter[]; visible: Set<string>; contextChars: number },
): Promise<PackedContext> {
  const chunks = (await index.leadingChunks({ sessionId: query.sessionId, filters: query.filters, perJob: OVERVIEW_CHUNKS_PER_DOCUMENT }))
    .filter((chunk) => query.visible.has(chunk.jobId));
  const documents = [...new Set(chunks.map((c) => c.jobId))].slice(0, OVERVIEW_DOCUMENTS);
  // Each document's first chunk first, then its second…, so a tight budget still covers every document's opening.
  const ordered = chunks
    .filter((c) => documents.includes(c.jobId))
    .sort((a, b) => a.ordinal - b.ordinal || documents.indexOf(a.jobId) - documents.indexOf(b.jobId));
  // Scores only order the sources: earlier passages first.
  const hits = ordered.map((chunk, i) => ({ chunk, score: 1 / (1 + i) }));
  return packContexts(hits, documents.length * OVERVIEW_CHUNKS_PER_DOCUMENT, query.contextChars);
}
