import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { REPO_ROOT } from '../support/paths.js';

/** Runs node (with tsx) in the repository root with DOC_CHAT_CORPUS as given (undefined: not set at all). */
function run(args: string[], corpus: string | undefined, extraEnv: NodeJS.ProcessEnv = {}) {
  const env = { ...process.env, ...extraEnv };
  if (corpus === undefined) delete env.DOC_CHAT_CORPUS;
  else env.DOC_CHAT_CORPUS = corpus;
  const result = spawnSync(process.execPath, ['--import', 'tsx', ...args], { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

/** CORPUS_DIR and CORPUS_AVAILABLE as test/support/paths.ts computes them under that setting. */
function corpusSetting(corpus: string | undefined): { dir: string; available: boolean } {
  const script = "const m = await import('./test/support/paths.ts'); console.log(JSON.stringify({ dir: m.CORPUS_DIR, available: m.CORPUS_AVAILABLE }));";
  const { status, out } = run(['--input-type=module', '-e', script], corpus);
  expect(status, out).to.equal(0);
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

describe('tests that need nothing beside the repository', function () {
  this.timeout(150_000);

  it('finds the corpus through DOC_CHAT_CORPUS; one that does not exist means none, not the default', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'corpus-'));
    try {
      expect(corpusSetting(folder)).to.deep.equal({ dir: folder, available: true });
      expect(corpusSetting(path.join(folder, 'missing'))).to.deep.equal({ dir: path.join(folder, 'missing'), available: false });
      const fallback = path.resolve(REPO_ROOT, '../shared/data');
      expect(corpusSetting(undefined)).to.deep.equal({ dir: fallback, available: fs.existsSync(fallback) });
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('loads every test file without the corpus, says how many corpus tests it skipped and why, and leaves no temporary file', () => {
    const mocha = path.join(REPO_ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');
    // Loading a file runs its describe() bodies but none of its hooks: a folder made there is never removed.
    const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-dry-run-'));
    try {
      const { status, out } = run([mocha, '--dry-run', '--reporter', 'dot', 'test/**/*.test.ts'], '/nonexistent-corpus', { TMPDIR: tempDir });
      expect(status, out).to.equal(0);
      expect(out).to.match(
        /\d+ corpus tests in \d+ suites skipped: corpus not found at \/nonexistent-corpus: set DOC_CHAT_CORPUS or put \.\.\/shared\/data beside the repo/,
      );
      // tsx keeps its compile cache there (tsx-<uid>): that is tsx's, and meant to stay.
      const made = fs.readdirSync(tempDir).filter((name) => !/^tsx-\d+$/.test(name));
      expect(made, 'made while loading the test files').to.deep.equal([]);
    } finally {
      fs.rmSync(tempDir, { recursive: true, force: true });
    }
  });
});
