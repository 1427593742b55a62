import { pino } from 'pino';
import { PinoLogger } from '../../adapters/system/pino-logger.js';
import { loggerContract } from './logger.contract.js';

const LEVEL_NAMES = pino.levels.labels as Record<number, 'info' | 'warn' | 'error'>;

// The JSON lines exactly as pino writes them, parsed back.
loggerContract('PinoLogger (JSON lines)', () => {
  const written: string[] = [];
  const logger = new PinoLogger({ level: 'info', destination: { write: (line: string) => void written.push(line) } });
  return {
    logger,
    entries: () =>
      written.map((line) => {
        const { level, msg, time: _time, pid: _pid, ...fields } = JSON.parse(line) as Record<string, unknown>;
        return { level: LEVEL_NAMES[level as number], message: msg as string, fields };
      }),
  };
});
