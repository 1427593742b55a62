// Worker entry used when the sources run as TypeScript under tsx (tests, `npm start`): on Node 20 the parent's
// `--import tsx` does not reach worker threads, so register tsx's loader here, then load the real entry.
// Plain JS on purpose: it must load before any TypeScript can. See startWorker() in worker-thread-document-reader.ts.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
