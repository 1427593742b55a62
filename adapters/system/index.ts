/** `doc-chat/adapters/system`: clock, ids, a logger and secret files from the operating system. */
export { JsonLinesLogger, RandomUuidGenerator, SystemClock } from './system.js';
export { loadOrCreateSecret, MIN_SECRET_LENGTH } from './secret-file.js';
