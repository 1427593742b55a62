import { randomUUID } from 'node:crypto';
import type { Clock, IdGenerator } from '../../core/ports/clock-and-ids.js';

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
