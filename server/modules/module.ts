import type { IncomingMessage } from 'node:http';
import type Router from '@koa/router';
import type { Container, ContainerModule } from 'inversify';
import type { Config } from '../config.js';
import type { Logger } from '../../core/ports/logger.js';
import type { EnvReader, Variable } from '../config/variables.js';

/**
 * One adapter family (records, files, models, ...): everything the service needs to know of it lives in its module
 * file, and the composition root (server/modules/index.ts) only lists the modules. Start-up runs them in that order:
 * configure every family, load every family's bindings, init every Lifecycle; shutdown closes in reverse.
 */
export interface ServiceModule<Section extends object = object> {
  /** The family's name, as the configuration table shows it. */
  readonly family: string;
  /** Every environment variable the family reads (the variables list and docs table are derived from these). */
  readonly variables: readonly Variable<any>[];
  /** Reads the family's part of Config; a wrong or contradictory setting throws a ConfigError naming the variable. */
  configure(env: EnvReader): Section;
  /**
   * The family's bindings, and a Lifecycle (server/modules/lifecycle.ts) for each adapter that starts, stops or can
   * be probed. SDK-backed adapters are imported here with import(), only when configured.
   */
  bindings?(config: Config, given: Given): ContainerModule | Promise<ContainerModule>;
  /** Routes the family serves on the API port (e.g. the local upload receiver), from the built container. */
  http?(container: Container, config: Config): HttpPart | undefined;
  /** The family's fields in the "listening"/"worker started" log line. */
  started?(config: Config): Record<string, unknown>;
}

/** What the code starting the service hands in besides the configuration. */
export interface Given {
  /** Used instead of a logger made from LOG_LEVEL (tests, embedding code). */
  logger?: Logger;
}

export interface HttpPart {
  routers: Router[];
  /** Requests whose body may take long (uploads): they get UPLOAD_BODY_TIMEOUT_MS instead of HTTP_BODY_TIMEOUT_MS. */
  isLongBody?(req: IncomingMessage): boolean;
}
