import { pino, type DestinationStream, type Logger as Pino } from 'pino';
import type { Logger } from '../../core/ports/logger.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Field names whose values never reach a log line, whatever a caller passes: a token or Authorization header logged
 * by mistake is censored here rather than leaked to a log collector.
 */
const REDACTED_FIELDS = ['authorization', 'Authorization', 'token', 'headers.authorization', 'req.headers.authorization'];

/**
 * The Logger port on pino: one JSON object per line (pino's own format: numeric `level`, epoch `time`, `msg`), which
 * pino-pretty, log shippers and `jq` read as is. On stdout, where pino and container runtimes expect a service's log
 * stream; stderr keeps the one-line start-up errors meant for a person ("Configuration error: ..."). Also has pino's
 * `debug`, which the HTTP request log uses for health checks.
 */
export class PinoLogger implements Logger {
  private readonly pino: Pino;

  constructor(options: { level?: LogLevel; destination?: DestinationStream } = {}) {
    this.pino = pino(
      {
        level: options.level ?? 'info',
        base: { pid: process.pid },
        redact: { paths: REDACTED_FIELDS, censor: '[redacted]' },
        // An Error passed as a field keeps its type, message and stack (plain JSON would write {}).
        serializers: { error: pino.stdSerializers.err, err: pino.stdSerializers.err },
      },
      // Synchronous: the line that explains a crash is written before the process dies.
      options.destination ?? pino.destination({ dest: 1, sync: true }),
    );
  }

  debug(message: string, fields?: Record<string, unknown>): void {
    this.pino.debug(fields ?? {}, message);
  }

  info(message: string, fields?: Record<string, unknown>): void {
    this.pino.info(fields ?? {}, message);
  }

  warn(message: string, fields?: Record<string, unknown>): void {
    this.pino.warn(fields ?? {}, message);
  }

  error(message: string, fields?: Record<string, unknown>): void {
    this.pino.error(fields ?? {}, message);
  }
}
