import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { MODULES } from '../../server/modules/index.js';
import { REPO_ROOT } from '../support/paths.js';

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');

/**
 * Issue 17, point 2: a family is one module file (and its adapter folder). The composition root lists the modules and
 * nothing else; what differs between adapters is decided inside their family's module, never by the code that runs
 * the service.
 */
describe('one module per adapter family', () => {
  it('lists every server/modules/*.module.ts once, and nothing else', () => {
    const files = fs.readdirSync(path.join(REPO_ROOT, 'server/modules')).filter((name) => name.endsWith('.module.ts'));
    const list = read('server/modules/index.ts');
    for (const file of files) expect(list, file).to.include(`from './${file.replace(/\.ts$/, '.js')}'`);
    expect(MODULES).to.have.length(files.length);
    expect(new Set(MODULES.map((module) => module.family)).size).to.equal(MODULES.length);
  });

  it('the code that builds and runs the service names no adapter class and tests no adapter\'s type', () => {
    for (const file of ['server/container.ts', 'server/service.ts', 'server/serve.ts', 'server/config.ts', 'server/modules/index.ts']) {
      const source = read(file);
      // Errors may be told apart (a ConfigError exits 1 with one line); adapters may not.
      expect(source, file).to.not.match(/\binstanceof (?!ConfigError\b|Error\b)\w+/);
      // Only the logger that reports a failed configuration and metrics types, never an adapter to choose between.
      const adapters = [...source.matchAll(/^import (type )?.*from '\.\.\/adapters\/([^']+)'/gm)].map((m) => `${m[1] ?? ''}${m[2]}`);
      expect(adapters.filter((a) => !['system/pino-logger.js', 'type prometheus/service-metrics.js'].includes(a)), file).to.deep.equal([]);
      // Duck typing an adapter (queue.whenIdle?.()) is what the QueueRunner type replaces; a Lifecycle's members are
      // optional by its type (server/modules/lifecycle.ts), so lifecycle.init?.() is not probing.
      expect(source, file).to.not.match(/\b(?!lifecycle\b)\w+\.(whenIdle|start|stop|check|init)\?\./);
    }
  });
});
