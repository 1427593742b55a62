/**
 * `doc-chat/server`: the HTTP service, started and stopped from code. `loadConfig(env)` reads the same variables as
 * `npm start` (pass your own record instead of process.env); `createServer(config)` builds the service on it.
 */
import type { Logger } from '../core/ports/logger.js';
import type { Config } from './config.js';
import { startService, type RunningService } from './service.js';

export { CONFIG_VARIABLES, ConfigError, DEFAULTS, loadConfig, type Config } from './config.js';
export type { RunningService } from './service.js';
/** V8's old generation held to ×1.5 growth, as `npm start` runs it: this process's setting, so yours to opt into. */
export { limitHeapGrowth } from './node-flags.js';

export interface DocChatServer {
  /** Opens the database, prepares storage, resumes unfinished ingest jobs and listens (config.port; 0 picks a free one). */
  start(): Promise<RunningService>;
  /** Stops listening, lets running ingestions finish (briefly), stops the extraction children, closes the database. */
  stop(): Promise<void>;
  /** The running service, between start() and stop(). */
  readonly running: RunningService | undefined;
}

export function createServer(config: Config, options: { logger?: Logger } = {}): DocChatServer {
  let starting: Promise<RunningService> | undefined;
  let running: RunningService | undefined;
  return {
    get running() {
      return running;
    },
    start() {
      // Starting twice would open the database twice and bind a second port: the second call gets the first service.
      starting ??= startService(config, options).then(
        (service) => (running = service),
        (error: unknown) => {
          starting = undefined;
          throw error;
        },
      );
      return starting;
    },
    async stop() {
      const service = await starting?.catch(() => undefined);
      starting = undefined;
      running = undefined;
      await service?.close();
    },
  };
}
