import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { SERVICE_MALLOC_ENV, SERVICE_NODE_FLAGS } from '../../server/node-flags.js';
import { REPO_ROOT } from '../support/paths.js';

const read = (name: string) => fs.readFileSync(path.join(REPO_ROOT, name), 'utf8');
const manifest = JSON.parse(read('package.json')) as {
  types: string;
  files: string[];
  exports: Record<string, string | { types: string; default: string }>;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  overrides?: Record<string, unknown>;
};

/** The TypeScript source tsc compiles to a dist/ path (tsconfig.build.json: rootDir ".", outDir "dist"). */
const sourceOf = (distPath: string) => path.join(REPO_ROOT, distPath.replace(/^\.\/dist\//, '').replace(/\.(d\.ts|js)$/, '.ts'));

/** Checked without building: the slow proof that the built package works is test/e2e/package-embed.test.ts. */
describe('the package manifest and the image run compiled JavaScript', () => {
  it('every export points into dist/ at a compiled source file, with its declarations beside it', () => {
    for (const [entry, target] of Object.entries(manifest.exports)) {
      if (entry === './package.json') continue;
      expect(target, entry).to.be.an('object');
      const { types, default: js } = target as { types: string; default: string };
      expect(js, entry).to.match(/^\.\/dist\/.+\.js$/);
      expect(types, entry).to.equal(js.replace(/\.js$/, '.d.ts'));
      expect(fs.existsSync(sourceOf(js)), `${entry}: ${sourceOf(js)}`).to.equal(true);
    }
    expect(manifest.types).to.equal((manifest.exports['.'] as { types: string }).types);
    expect(manifest.files).to.include('dist');
  });

  it('each adapter family has its own entry', () => {
    const families = fs.readdirSync(path.join(REPO_ROOT, 'adapters'), { withFileTypes: true }).filter((e) => e.isDirectory());
    for (const family of families) expect(manifest.exports, family.name).to.have.property(`./adapters/${family.name}`);
  });

  it('./testing re-exports every port contract suite', () => {
    const testing = read('testing/index.ts');
    const suites = fs.readdirSync(path.join(REPO_ROOT, 'test/contracts')).filter((name) => name.endsWith('.contract.ts'));
    expect(suites.length).to.be.greaterThan(0);
    for (const suite of suites) expect(testing, suite).to.include(`'../test/contracts/${suite.replace(/\.ts$/, '.js')}'`);
  });

  it('reads PDFs with pdf.js itself: pdf-parse (the benchmarks\' baseline, with its own older pdf.js) is a development dependency only', () => {
    for (const reader of ['pdfjs-dist', '@hyzyla/pdfium', '@napi-rs/canvas']) expect(manifest.dependencies, reader).to.have.property(reader);
    expect(manifest.dependencies).to.not.have.property('pdf-parse');
    expect(manifest.devDependencies).to.have.property('pdf-parse');
  });

  it('every override of a dependency\'s version is explained in docs/operations.md (package.json holds no comments)', () => {
    const dependencyNotes = read('docs/operations.md').split('\n## Dependencies\n')[1] ?? '';
    for (const name of Object.keys(manifest.overrides ?? {})) expect(dependencyNotes, name).to.include(`\`${name}\``);
  });

  it('tsx is a development dependency only; npm start and the image run node on dist/, with the service\'s Node options and malloc settings', () => {
    expect(manifest.dependencies).to.not.have.property('tsx');
    expect(manifest.devDependencies).to.have.property('tsx');
    const assignments = Object.entries(SERVICE_MALLOC_ENV).map(([name, value]) => `${name}=${value}`);
    expect(manifest.scripts.start).to.equal([...assignments, 'node', ...SERVICE_NODE_FLAGS, 'dist/server/main.js'].join(' '));
    const dockerfile = read('Dockerfile');
    const instructions = dockerfile.split('\n').filter((line) => !line.startsWith('#'));
    expect(instructions.filter((line) => /tsx/.test(line))).to.deep.equal([]);
    const lastStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(lastStage).to.include(`\nCMD ${JSON.stringify(['node', ...SERVICE_NODE_FLAGS, 'dist/server/main.js']).replace(/","/g, '", "')}\n`);
    // The image's environment holds the malloc settings (ENV lines of its last stage, continued with backslashes).
    const env = lastStage.split('\n').filter((line) => !line.startsWith('#')).join('\n').replace(/\\\n\s*/g, ' ');
    const envLines = env.split('\n').filter((line) => line.startsWith('ENV '));
    for (const assignment of assignments) expect(envLines.join(' ').split(/\s+/), assignment).to.include(assignment);
  });
});
