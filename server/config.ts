import { EnvReader, type Env, type Variable } from './config/variables.js';
import { MODULES } from './modules/index.js';

export { ConfigError } from './config/variables.js';
export type { HttpLimits } from './modules/service.module.js';
export type { ExtractionLimits } from './modules/extraction.module.js';

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type Flatten<T> = { [K in keyof T]: T[K] };

/**
 * Everything the service can be told, decided once at start: the sections of every family (server/modules), each
 * read from the environment by its module's configure(). This file is the only one that reads process.env.
 */
export type Config = Flatten<UnionToIntersection<ReturnType<(typeof MODULES)[number]['configure']>>>;

/** Every variable the service reads, with its family: the source of docs/configuration.md. */
export const CONFIG_TABLE: readonly (Variable & { family: string })[] = MODULES.flatMap((module) =>
  module.variables.map((variable) => ({ ...variable, family: module.family })),
);

/** The variables the service reads, old names (aliases) included; the compose file and .env.example may set only these. */
export const CONFIG_VARIABLES: readonly string[] = CONFIG_TABLE.flatMap((variable) => [variable.name, ...(variable.aliases ?? [])]);

/** The default of each variable that has a plain one, by name. */
export const DEFAULTS: Readonly<Record<string, unknown>> = Object.fromEntries(
  CONFIG_TABLE.filter((variable) => variable.default !== undefined).map((variable) => [variable.name, variable.default]),
);

export function loadConfig(env: Env = process.env): Config {
  const reader = new EnvReader(env, new Set(CONFIG_VARIABLES));
  return Object.assign({}, ...MODULES.map((module) => module.configure(reader))) as Config;
}
