import { JsonLinesLogger } from '../adapters/system/system.js';
import { ConfigError, loadConfig } from './config.js';
import { startService } from './service.js';

const logger = new JsonLinesLogger();

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
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
}

main().catch((error) => {
  logger.error('failed to start', { error: error instanceof Error ? `${error.message}\n${error.stack}` : String(error) });
  process.exit(1);
});
