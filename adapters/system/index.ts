/** `doc-chat/adapters/system`: clock, ids, a logger, secret files and thread priority from the operating system. */
export { RandomUuidGenerator, SystemClock } from './system.js';
export { LOG_LEVELS, PinoLogger, type LogLevel } from './pino-logger.js';
export { loadOrCreateSecret, MIN_SECRET_LENGTH } from './secret-file.js';
export { currentThreadId, lowerThreadPriority } from './thread-priority.js';
