import type { TagFilter } from '../domain/tags.js';
import type { VectorIndex } from '../ports/vector-index.js';
import { packContexts, type PackedContext } from '../rag/context.js';
import { OVERVIEW_CHUNKS_PER_DOCUMENT } from '../rag/overview.js';
import type { UnitLabels } from '../rag/place.js';

/** Documents an overview covers at most (their opening passages share the context budget). */
export const OVERVIEW_DOCUMENTS = 10;

/**
 * The passages an overview is drawn from: the opening chunks of the first OVERVIEW_DOCUMENTS `documents` (each given by
 * the ids its chunks carry: its own, and the one whose chunks an identical upload reuses), in that order, within the
 * usual character budget. Only those documents' chunks are read, however many the session holds. Empty when none has any.
 */
export async function overviewContext(
  index: VectorIndex,
  query: { sessionId: string; filters?: readonly TagFilter[]; documents: readonly (readonly string[])[]; contextChars: number; units?: UnitLabels },
): Promise<PackedContext> {
  const covered = query.documents.slice(0, OVERVIEW_DOCUMENTS);
  const jobIds = covered.flat();
  const chunks = await index.leadingChunks({ sessionId: query.sessionId, filters: query.filters, jobIds, perJob: OVERVIEW_CHUNKS_PER_DOCUMENT });
  const documentOf = (jobId: string) => covered.findIndex((ids) => ids.includes(jobId));
  // Each document's first chunk first, then its second…, so a tight budget still covers every document's opening.
  const ordered = chunks.sort((a, b) => a.ordinal - b.ordinal || documentOf(a.jobId) - documentOf(b.jobId));
  // Scores only order the sources: earlier passages first.
  const hits = ordered.map((chunk, i) => ({ chunk, score: 1 / (1 + i) }));
  return packContexts(hits, covered.length * OVERVIEW_CHUNKS_PER_DOCUMENT, query.contextChars, query.units);
}
