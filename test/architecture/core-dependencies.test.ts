import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const coreDir = path.join(repoRoot, 'core');

/** Every import/export-from/dynamic import specifier in a TypeScript source. */
export function importSpecifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\s+from\s+)?['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) found.push(m[1]);
  return found;
}

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/**
 * Packages the core may use: pure functions of their arguments, no I/O, no state, no framework or SDK. Porter's
 * stemmer is the one term key of the product (core/rag/text.ts termKey), shared by retrieval and the answerer.
 */
const PURE_PACKAGES = new Set(['stemmer']);

/**
 * The hexagon's rule: core/ imports only core/, Node's built-ins and PURE_PACKAGES. No adapters/, server/, Koa,
 * Inversify, Kysely, better-sqlite3 or any SDK.
 */
export function coreViolations(files: string[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    for (const spec of importSpecifiers(fs.readFileSync(file, 'utf8'))) {
      const where = `${path.relative(repoRoot, file)} imports '${spec}'`;
      if (spec.startsWith('node:') || PURE_PACKAGES.has(spec)) continue;
      if (spec.startsWith('.')) {
        const target = path.resolve(path.dirname(file), spec);
        if (!target.startsWith(coreDir + path.sep)) violations.push(`${where} (outside core/)`);
        continue;
      }
      violations.push(`${where} (a package: core must stay framework- and SDK-free)`);
    }
  }
  return violations;
}

describe('architecture: the core depends on nothing outside it', () => {
  it('core/ imports only core/, node: built-ins and pure algorithm packages', () => {
    const files = tsFiles(coreDir);
    expect(files.length).to.be.greaterThan(20);
    expect(coreViolations(files)).to.deep.equal([]);
  });

  it('the check catches each forbidden kind of import', () => {
    const dir = fs.mkdtempSync(path.join(coreDir, '.rule-probe-'));
    try {
      const probe = path.join(dir, 'probe.ts');
      fs.writeFileSync(
        probe,
        [
          "import Koa from 'koa';",
          "import { Container } from 'inversify';",
          "import type { Kysely } from 'kysely';",
          "import Database from 'better-sqlite3';",
          "import { Ollama } from 'ollama';",
          "import { x } from '../../adapters/sqlite/database.js';",
          "export { y } from '../../server/config.js';",
          "const z = await import('@supabase/supabase-js');",
          "import fs from 'fs';",
          "import { ok } from '../domain/errors.js';",
          "import { createHash } from 'node:crypto';",
          "import { stemmer } from 'stemmer';",
        ].join('\n'),
      );
      const violations = coreViolations([probe]);
      expect(violations).to.have.length(9);
      for (const name of ['koa', 'inversify', 'kysely', 'better-sqlite3', 'ollama', 'adapters/sqlite', 'server/config', '@supabase/supabase-js', "'fs'"]) {
        expect(violations.some((v) => v.includes(name)), name).to.equal(true);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
