/** A configured dependency that readiness asks; `check` throws when it does not answer. */
export interface DependencyProbe {
  readonly name: string;
  check(): Promise<void>;
}
