import type { Compilable, CompiledQuery } from 'kysely';

/**
 * A query built and compiled once, then run with new values: kysely otherwise builds the query tree and compiles it
 * to SQL on every call, which on a hot read (the history page) cost more CPU than SQLite running the statement.
 * `build` receives markers in place of its arguments and must pass each one as a bound value (not a literal or an
 * identifier); the returned function puts the real arguments where the markers ended up. The SQL text is the same
 * every time, so the SQLite statement cache reuses its prepared statement too.
 */
export function preparedQuery<Args extends unknown[], Row>(
  arity: Args['length'],
  build: (...args: Args) => Compilable<Row>,
): (...args: Args) => CompiledQuery<Row> {
  const markers = Array.from({ length: arity }, (_, i) => `\u0000prepared-query-argument-${i}\u0000`);
  const compiled = build(...(markers as Args)).compile();
  const slots = compiled.parameters.map((value) => markers.indexOf(value as string));
  if (slots.includes(-1) || markers.some((_, i) => !slots.includes(i))) {
    throw new Error(`preparedQuery: every argument must be bound exactly as given, and every bound value be an argument: ${compiled.sql}`);
  }
  return (...args) => ({ ...compiled, parameters: slots.map((slot) => args[slot]) });
}
