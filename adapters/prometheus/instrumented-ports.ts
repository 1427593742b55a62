import { UpstreamUnavailableError } from '../../core/domain/errors.js';
import type { ExtractedPage } from '../../core/domain/model.js';
import type { DocumentReader } from '../../core/ports/document-reader.js';
import type { IndexQuery, VectorIndex } from '../../core/ports/vector-index.js';
import type { ServiceMetrics } from './service-metrics.js';

/**
 * Port decorators that feed ServiceMetrics, so the core stays free of any metrics library: the composition root wraps
 * the adapters it hands to createDocChat.
 */
/** Times searches by index kind and counts the index's outages under `dependency`. */
export function instrumentIndex(index: VectorIndex, metrics: ServiceMetrics, dependency: string): VectorIndex {
  const counted = countDependencyErrors(index, metrics, dependency);
  return new Proxy(counted, {
    get(target, property, receiver) {
      if (property !== 'search') return Reflect.get(target, property, receiver);
      return async (query: IndexQuery) => {
        const stop = metrics.searchDuration.startTimer({ index: index.kind });
        try {
          return await target.search(query);
        } finally {
          stop();
        }
      };
    },
  });
}

export function instrumentReader(reader: DocumentReader, metrics: ServiceMetrics): DocumentReader {
  return {
    // Not async: an async function awaiting the read would hold the request, and with it the document's bytes (40 MB
    // for a long report), until the last page is read. Here only the callbacks below outlive the call.
    read: (request) => {
      const stop = metrics.extractionDuration.startTimer();
      return reader.read(request).then(
        (pages: ExtractedPage[]) => {
          stop({ outcome: 'completed' });
          for (const page of pages) metrics.pagesExtracted.inc({ method: page.method });
          return pages;
        },
        (error: unknown) => {
          stop({ outcome: 'failed' });
          throw error;
        },
      );
    },
  };
}

/**
 * Wraps every method of an adapter so that an UpstreamUnavailableError (the dependency did not answer) is counted
 * under `dependency`; results and errors pass through unchanged. Only returned promises are watched: a method that
 * returns anything else (an async generator such as Llm.answerStream, a plain value) hands it back untouched.
 */
export function countDependencyErrors<T extends object>(adapter: T, metrics: ServiceMetrics, dependency: string): T {
  return new Proxy(adapter, {
    // Read on the adapter itself, not the proxy: a getter may use the adapter's private fields.
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        return result instanceof Promise ? result.catch((error: unknown) => rethrowCounted(metrics, dependency, error)) : result;
      };
    },
  });
}

function rethrowCounted(metrics: ServiceMetrics, dependency: string, error: unknown): never {
  if (error instanceof UpstreamUnavailableError) metrics.dependencyErrors.inc({ dependency });
  throw error;
}
