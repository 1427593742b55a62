import { PinoLogger } from '../adapters/system/pino-logger.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { startService } from './service.js';

/**
 * Reads the configuration from the environment, starts the service and stops it on SIGINT/SIGTERM: what `npm start`
 * (server/main.ts) and `doc-chat serve` run. A wrong setting exits 1 with one line naming the variable.
 */
export async function serveFromEnvironment(): Promise<void> {
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
    logger.info('doc-chat listening', {
      port: config.port,
      dataDir: config.dataDir,
      auth: config.auth.kind,
      blobs: config.blobs.kind,
      index: config.index.kind,
      models: config.models.kind,
    });
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
