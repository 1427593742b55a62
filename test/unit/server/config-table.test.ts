import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { CONFIG_TABLE, CONFIG_VARIABLES } from '../../../server/config.js';
import { configurationTable, TABLE_END, TABLE_START, withConfigurationTable } from '../../../server/config/table.js';
import { EnvReader, optional } from '../../../server/config/variables.js';
import { text } from '../../../server/config/schemas.js';
import { REPO_ROOT } from '../../support/paths.js';

describe('configuration table (docs/configuration.md)', () => {
  const file = path.join(REPO_ROOT, 'docs', 'configuration.md');

  it('the committed table is the one derived from the families\' variables (npx tsx scripts/config-table.ts --write)', () => {
    const committed = fs.readFileSync(file, 'utf8');
    expect(committed.slice(committed.indexOf(TABLE_START), committed.indexOf(TABLE_END) + TABLE_END.length))
      .to.equal(`${TABLE_START}\n${configurationTable()}\n${TABLE_END}`);
  });

  it('lists every variable once, under one family, with a meaning', () => {
    expect(new Set(CONFIG_VARIABLES).size).to.equal(CONFIG_VARIABLES.length);
    for (const variable of CONFIG_TABLE) {
      expect(variable.meaning, variable.name).to.have.length.greaterThan(10);
      expect(configurationTable()).to.include(`| \`${variable.name}\` |`);
    }
  });

  it('replaces only what is between the markers', () => {
    const document = `# Title\n\n${TABLE_START}\nstale\n${TABLE_END}\n\nAfter.\n`;
    const updated = withConfigurationTable(document);
    expect(updated.startsWith(`# Title\n\n${TABLE_START}\n| Variable |`)).to.equal(true);
    expect(updated.endsWith(`${TABLE_END}\n\nAfter.\n`)).to.equal(true);
    expect(updated).to.not.include('stale');
    expect(() => withConfigurationTable('# no markers')).to.throw(/config-table:start/);
  });

  it('refuses to read a variable no family declares, so none can be missing from the table', () => {
    const reader = new EnvReader({ UNDECLARED: 'x' }, new Set(CONFIG_VARIABLES));
    expect(() => reader.read(optional('UNDECLARED', text, 'a variable no module lists'))).to.throw(/declared by no module/);
  });
});
