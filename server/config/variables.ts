import * as v from 'valibot';

/**
 * One environment variable: its name, the valibot schema that parses its text, its default and what it means. Each
 * family's module (server/modules) declares the variables it reads; the list of variables the service accepts and the
 * table in docs/configuration.md are derived from those declarations, never kept by hand.
 */
export interface Variable<T = unknown> {
  readonly name: string;
  readonly schema: v.GenericSchema<string, T>;
  /** One line for the configuration table. */
  readonly meaning: string;
  /** Used when the variable is unset or empty. */
  readonly default?: T;
  /** The default as the table shows it, when it is not a plain value (e.g. "INGEST_CONCURRENCY"). */
  readonly defaultText?: string;
  /** A credential: an error names the variable and the rule, never the value (logs keep errors). */
  readonly secret?: boolean;
  /**
   * Older names still read, for configurations written before a rename (MINIO_ENDPOINT for S3_ENDPOINT). Setting the
   * name and an alias to different values stops the start: which one was meant cannot be guessed.
   */
  readonly aliases?: readonly string[];
}

interface VariableOptions {
  defaultText?: string;
  aliases?: readonly string[];
}

/** A variable with a default: reading it always gives a value. */
export type Setting<T> = Variable<T> & { readonly default: T };

export function setting<T>(name: string, schema: v.GenericSchema<string, T>, fallback: T, meaning: string, options: VariableOptions = {}): Setting<T> {
  return { name, schema, meaning, default: fallback, ...options };
}

export function optional<T>(name: string, schema: v.GenericSchema<string, T>, meaning: string, options: VariableOptions & { secret?: boolean } = {}): Variable<T> {
  return { name, schema, meaning, ...options };
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/**
 * The environment as a module's `configure` sees it: typed reads of declared variables (any family's, so a rule
 * that spans families, such as ROLE needing DATABASE_URL, reads the other family's variable by its declaration).
 */
export class EnvReader {
  constructor(
    private readonly env: Env,
    private readonly declared: ReadonlySet<string>,
  ) {}

  read<T>(variable: Setting<T>): T;
  read<T>(variable: Variable<T>, fallback: T): T;
  read<T>(variable: Variable<T>): T | undefined;
  read<T>(variable: Variable<T>, fallback?: T): T | undefined {
    const found = this.lookup(variable);
    if (found === undefined) return fallback ?? variable.default;
    const result = v.safeParse(variable.schema, found.raw.trim());
    if (!result.success) {
      const message = result.issues[0].message;
      throw new ConfigError(found.name, variable.secret ? message : `${message} (got "${found.raw}")`);
    }
    return result.output;
  }

  /** Set to something other than blanks (compose passes empty strings for unset values). */
  isSet(variable: Variable): boolean {
    return this.lookup(variable) !== undefined;
  }

  /** True when all are set, false when none is; one missing of a set group is an error naming it. */
  together(variables: Variable[]): boolean {
    const set = variables.filter((variable) => this.isSet(variable));
    if (set.length === 0) return false;
    const missing = variables.find((variable) => !this.isSet(variable));
    if (missing) throw new ConfigError(missing.name, `must be set together with ${set.map((s) => this.setName(s)).join(', ')}`);
    return true;
  }

  /** Settings that only refine `anchor` are refused without it, so a typo'd or forgotten anchor is not silent. */
  forbidWithout(dependents: Variable[], anchor: Variable): void {
    const stray = dependents.find((variable) => this.isSet(variable));
    if (!stray) return;
    const name = this.setName(stray);
    throw new ConfigError(name, `has no effect without ${anchor.name}; set ${anchor.name} or remove ${name}`);
  }

  /** The name under which `variable` is set: its own, or the alias the environment uses. */
  private setName(variable: Variable): string {
    return this.lookup(variable)?.name ?? variable.name;
  }

  /** The variable's text and the name it was found under (its own or an alias), or undefined when none is set. */
  private lookup(variable: Variable): { name: string; raw: string } | undefined {
    // A programming error, not a configuration one: a variable no module declares would be missing from the docs.
    if (!this.declared.has(variable.name)) throw new Error(`${variable.name} is read but declared by no module's variables`);
    const set = [variable.name, ...(variable.aliases ?? [])]
      .map((name) => ({ name, raw: this.env[name] }))
      .filter((entry): entry is { name: string; raw: string } => entry.raw !== undefined && entry.raw.trim() !== '');
    if (set.length === 0) return undefined;
    const [first, ...others] = set;
    const differing = others.find((other) => other.raw.trim() !== first.raw.trim());
    if (differing) {
      throw new ConfigError(variable.name, `is set twice, to different values: as ${first.name} and as ${differing.name} (its old name); keep only ${variable.name}`);
    }
    return first;
  }
}
