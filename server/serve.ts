import { PinoLogger } from '../adapters/system/pino-logger.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { MODULES } from './modules/index.js';
import { startService, type RunningService } from './service.js';
import { limitHeapGrowth } from './node-flags.js';

/**
 * Reads the configuration from the environment, starts the service and stops it on SIGINT/SIGTERM: what `npm start`
 * (server/main.ts) and `doc-chat serve` run. A wrong setting exits 1 with one line naming the variable.
 */
export async function serveFromEnvironment(): Promise<void> {
  limitHeapGrowth();
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = new PinoLogger({ level: config.logLevel });
  try {
    const service = await startService(config, { logger });
    const { message, fields } = startedLine(config, service);
    logger.info(message, fields);
    const shutdown = (signal: string) => {
      logger.info('shutting down', { signal });
      service.close().then(() => process.exit(0), () => process.exit(1));
    };
    process.once('SIGINT', () => shutdown('SIGINT'));
    process.once('SIGTERM', () => shutdown('SIGTERM'));
  } catch (error) {
    logger.error('failed to start', { error: error instanceof Error ? `${error.message}\n${error.stack}` : String(error) });
    process.exit(1);
  }
}

/**
 * What a started process says it is: an instance with the API says where it listens; a worker (ROLE=worker) has no
 * API, so it says it started and where its metrics are scraped, if anywhere. Ports are the bound ones (0 picks one).
 */
function startedLine(config: Config, service: RunningService): { message: string; fields: Record<string, unknown> } {
  const portOf = (url: string | undefined) => (url ? Number(new URL(url).port) : undefined);
  const fields = {
    ...(service.url ? { port: portOf(service.url) } : {}),
    ...(service.metricsUrl ? { metricsPort: portOf(service.metricsUrl) } : {}),
    // Each family says what it runs on (records: sqlite, blobs: s3, ...).
    ...Object.assign({}, ...MODULES.map((module) => module.started?.(config) ?? {})),
  };
  return { message: config.role === 'worker' ? 'doc-chat worker started' : 'doc-chat listening', fields };
}
