import { randomUUID } from 'node:crypto';
import type { Clock, IdGenerator } from '../../core/ports/clock-and-ids.js';
import type { Logger } from '../../core/ports/logger.js';

export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}

export class RandomUuidGenerator implements IdGenerator {
  newId(): string {
    return randomUUID();
  }
}

/** One JSON object per line on stderr: greppable, and what log collectors expect. */
export class JsonLinesLogger implements Logger {
  constructor(private readonly minLevel: 'info' | 'warn' | 'error' | 'silent' = 'info') {}

  info(message: string, fields?: Record<string, unknown>): void {
    this.write('info', message, fields);
  }

  warn(message: string, fields?: Record<string, unknown>): void {
    this.write('warn', message, fields);
  }

  error(message: string, fields?: Record<string, unknown>): void {
    this.write('error', message, fields);
  }

  private write(level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>): void {
    const order = { info: 0, warn: 1, error: 2, silent: 3 };
    if (order[level] < order[this.minLevel]) return;
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
  }
}
