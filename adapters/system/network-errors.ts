/**
 * Operating-system error codes that mean "the server could not be reached or dropped the connection": what a client
 * of a database, store or model server sees while that server is down or restarting. Not the request's fault.
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  // A response body cut off half-way (a stream read from the server).
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/** The unreachable-server code of `error` (or of one of an AggregateError's errors, or of its causes), if any. */
export function unreachableCode(error: unknown, depth = 0): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 4) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return code;
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const found = unreachableCode(inner, depth + 1);
      if (found) return found;
    }
  }
  return unreachableCode((error as { cause?: unknown }).cause, depth + 1);
}
