import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Real documents shared by the team; read-only. */
export const SHARED_DATA = path.resolve(REPO_ROOT, '../shared/data');
