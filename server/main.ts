import { serveFromEnvironment } from './serve.js';

await serveFromEnvironment();
