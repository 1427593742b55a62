import { RecordingLogger } from '../fakes/fixed-clock-and-ids.js';
import { loggerContract } from './logger.contract.js';

loggerContract('RecordingLogger (the tests’ stand-in)', () => {
  const logger = new RecordingLogger();
  return {
    logger,
    entries: () => logger.lines.map((l) => ({ level: l.level as 'info' | 'warn' | 'error', message: l.message, fields: l.fields ?? {} })),
  };
});
