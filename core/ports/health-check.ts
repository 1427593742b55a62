/** A configured dependency that readiness asks; `check` throws when it does not answer. */
export interface DependencyProbe {
  readonly name: string;
  check(): Promise<void>;
  /**
   * What its being down means for the instance: 'unavailable' (the default: take it out of rotation) or 'degraded'
   * (it still serves, with less: e.g. questions answered from the lexical index alone while the vector index is down).
   */
  readonly whenDown?: 'unavailable' | 'degraded';
}
