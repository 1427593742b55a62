import type { Clock, IdGenerator } from '../../core/ports/clock-and-ids.js';
import type { Logger } from '../../core/ports/logger.js';

/** A clock that moves only when told (or by `step` ms on each read). */
export class ManualClock implements Clock {
  constructor(
    private current = new Date('2026-01-01T00:00:00.000Z'),
    private readonly step = 1,
  ) {}

  now(): Date {
    const value = new Date(this.current);
    this.current = new Date(this.current.getTime() + this.step);
    return value;
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export class SequentialIds implements IdGenerator {
  private n = 0;

  constructor(private readonly prefix = 'id') {}

  newId(): string {
    this.n += 1;
    return `${this.prefix}-${String(this.n).padStart(4, '0')}`;
  }
}

export class RecordingLogger implements Logger {
  readonly lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  info(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: 'info', message, fields });
  }
  warn(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: 'warn', message, fields });
  }
  error(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: 'error', message, fields });
  }
}
