/**
 * Prints the configuration table derived from the families' variables, or with --write puts it into
 * docs/configuration.md between its markers (test/unit/server/config-table.test.ts fails while that file is stale).
 *   npx tsx scripts/config-table.ts [--write]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configurationTable, writeConfigurationTable } from '../server/config/table.js';

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'configuration.md');
if (process.argv.includes('--write')) {
  console.log(writeConfigurationTable(file) ? `updated ${file}` : `${file} is current`);
} else {
  console.log(configurationTable());
}
