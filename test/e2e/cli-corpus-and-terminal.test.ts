import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { signLocalToken } from '../../adapters/local-jwt/local-jwt-verifier.js';
import { textPdf } from '../support/make-pdf.js';
import { describeWithCorpus } from '../support/corpus.js';
import { corpusPath, REPO_ROOT } from '../support/paths.js';
import { startTestService, TEST_JWT_SECRET, type TestService } from '../support/test-service.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: REPO_ROOT, env: { ...process.env, ...env }, timeout: 400_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

const CLI = ['--import', 'tsx', 'server/cli/doc-chat.ts'];
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/**
 * The screen's lines, roughly: a return to column 1 (`ESC[1G`, CR) starts a new line, as the bar redraws do; other
 * control sequences (cursor up, clear line, cursor show/hide) are dropped.
 */
const screenLines = (s: string) => s.replace(/\x1b\[1G|\r/g, '\n').replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');

describe('doc-chat ingest on a real pseudo-terminal and on the real-document corpus', function () {
  this.timeout(420_000);
  let t: TestService;
  let env: Record<string, string>;

  before(async () => {
    t = await startTestService({ EXTRACTION_WORKERS: '2' });
    env = { DOC_CHAT_URL: t.baseUrl, DOC_CHAT_TOKEN: await signLocalToken(TEST_JWT_SECRET, 'terminal-user') };
  });
  after(() => t?.close());

  it('draws progress bars (cli-progress) on a terminal, then leaves the result lines', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-tty-'));
    try {
      // Several pages, so its job is still running when the client first asks, and gets a bar.
      const long = Array.from({ length: 150 }, (_, i) => `Paragraph ${i} of the terminal test document, about deposits and fees.`);
      fs.writeFileSync(path.join(folder, 'long.pdf'), (await textPdf({ paragraphs: long })).bytes);
      fs.writeFileSync(path.join(folder, 'short.pdf'), (await textPdf({ paragraphs: ['A short page.'] })).bytes);
      // util-linux `script` runs the client on a pseudo-terminal and copies what it draws to our pipe.
      const command = [process.execPath, ...CLI, 'ingest', folder, '--session', 'On a terminal'].map(quote).join(' ');
      const result = await run('script', ['-qfec', command, '/dev/null'], { ...env, COLUMNS: '120', LINES: '40' });
      expect(result.code, result.stdout + result.stderr).to.equal(0);
      expect(result.stdout).to.include('\x1b[?25l'); // the cursor hidden while bars are drawn, shown again after
      expect(result.stdout).to.include('\x1b[?25h');
      const text = screenLines(result.stdout);
      expect(text).to.match(/[█░]{10,} +\d+% \| uploading 2 files \d+(\.\d)? k?B\/\d+(\.\d)? kB/);
      expect(text).to.match(/[█░]{10,} +0% \| long\.pdf 0 B\/\d+\.\d kB/);
      expect(text).to.match(/[█░]{10,} +0% \| short\.pdf 0 B\/\d+ B/);
      expect(text).to.match(/^uploaded long\.pdf \(\d+\.\d kB\)$/m);
      expect(text).to.match(/^long\.pdf: completed, \d+ pages, \d+ chunks$/m);
      expect(text).to.match(/^short\.pdf: completed, 1 page, 1 chunk$/m);
      expect(text).to.match(/^2 of 2 ingested into session "On a terminal" \([0-9a-f-]{36}\)$/m);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  describeWithCorpus('the corpus', () => {
    const images = corpusPath('images');

    it('ingests the folder of photographed pages: every JPEG completed, the text files beside them skipped; ask cites one', async () => {
      const entries = fs.readdirSync(images).sort();
      const jpegs = entries.filter((f) => f.endsWith('.jpg'));
      const others = entries.filter((f) => !f.endsWith('.jpg'));
      expect(jpegs.length).to.be.greaterThan(5);
      const result = await run(process.execPath, [...CLI, 'ingest', images, '--session', 'Photographed pages'], env);
      expect(result.code, result.stdout + result.stderr).to.equal(0);
      const lines = result.stdout.trim().split('\n');
      expect(lines.filter((l) => l.startsWith('skipped '))).to.deep.equal(others.map((f) => `skipped ${f} (only .pdf, .jpg and .jpeg files are ingested)`));
      expect(lines.filter((l) => l.startsWith('uploaded ')).map((l) => l.split(' ')[1])).to.deep.equal(jpegs);
      const completed = lines.filter((l) => / completed, 1 page, \d+ chunks?$/.test(l)).map((l) => l.split(':')[0]);
      expect(completed).to.have.members(jpegs);
      expect(lines.at(-1)).to.match(new RegExp(`^${jpegs.length} of ${jpegs.length} ingested into session "Photographed pages" \\([0-9a-f-]{36}\\), ${others.length} skipped$`));

      const asked = await run(process.execPath, [...CLI, 'ask', 'Photographed pages', 'How many points is the text used to test the ocr code on all types of file format?'], env);
      expect(asked.code, asked.stderr).to.equal(0);
      expect(asked.stdout).to.include('12 point text');
      expect(asked.stdout.split('\nSources: ')[1].split('\n')[0]).to.match(/^\[1\] tesseractjs_testocr\.jpg, page 1(?:;|$)/);
    });
  });
});
