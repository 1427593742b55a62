import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { PDFiumLibrary } from '@hyzyla/pdfium';
import { PDFDocument } from 'pdf-lib';
import { PDF_MESSAGES } from '../../../adapters/extraction/pdf-page-source.js';
import { withGrowableTable } from '../../../adapters/extraction/pdfium-file-access.js';
import { openPdfiumPageSource } from '../../../adapters/extraction/pdfium-page-source.js';
import { describeWithCorpus } from '../../support/corpus.js';
import { listData, readData } from '../../support/extraction-fixtures.js';
import { MALFORMED_PDF, pagedTextPdf } from '../../support/generated-documents.js';
import { corpusPath, REPO_ROOT } from '../../support/paths.js';

const OPTIONS = { maxPdfImagePixels: 50_000_000 };
let dir: string; // made when tests run: loading the file (mocha --dry-run) must leave nothing behind
before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-pdfium-file-'))));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function fileOf(name: string, bytes: Uint8Array): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

async function allText(source: Uint8Array | { file: string }): Promise<string[]> {
  const pdf = await openPdfiumPageSource(source, OPTIONS);
  try {
    const pages: string[] = [];
    for (let n = 1; n <= pdf.pageCount; n++) pages.push(await pdf.text(n));
    return pages;
  } finally {
    await pdf.close();
  }
}

const openFiles = () => fs.readdirSync('/proc/self/fd').length;

describe('PDFium reading from a file', function () {
  this.timeout(60_000);

  it('gets a growable function table only through withGrowableTable: the wasm file as shipped has no free slot', async () => {
    const wasmFile = path.join(path.dirname(createRequire(import.meta.url).resolve('@hyzyla/pdfium')), 'pdfium.wasm');
    const tableOf = async (wasm: Uint8Array) => {
      const library = await PDFiumLibrary.init({ wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer });
      const table = (library as unknown as { module: { wasmExports: { __indirect_function_table: { length: number; grow(n: number): number } } } }).module.wasmExports.__indirect_function_table;
      return { table, library };
    };
    const shipped = await tableOf(fs.readFileSync(wasmFile));
    expect(() => shipped.table.grow(1)).to.throw(RangeError);
    const slots = shipped.table.length;
    shipped.library.destroy();
    const patched = await tableOf(withGrowableTable(fs.readFileSync(wasmFile)));
    expect(patched.table.length, 'the slots in use are kept').to.equal(slots);
    expect(patched.table.grow(1)).to.equal(slots);
    patched.library.destroy();
  });

  it('reads the same text from the file as from its bytes, and closes the file with the document', async () => {
    const book = await pagedTextPdf(Array.from({ length: 12 }, (_, i) => [`Page ${i + 1} of a generated report.`, 'Revenue grew by 4 percent.']));
    const file = fileOf('book.pdf', book);
    const fromBytes = await allText(book);
    const before = openFiles();
    for (let i = 0; i < 5; i++) expect(await allText({ file })).to.deep.equal(fromBytes);
    expect(openFiles(), 'no file descriptor left open').to.equal(before);
    expect(fromBytes[11]).to.include('Page 12 of a generated report.');
    // dropCaches() reopens the document through the same file.
    const pdf = await openPdfiumPageSource({ file }, OPTIONS);
    await pdf.text(1);
    await pdf.dropCaches();
    expect(await pdf.text(7)).to.equal(fromBytes[6]);
    await pdf.close();
    expect(openFiles()).to.equal(before);
  });

  it('refuses a damaged file with the damaged-PDF message, and a missing one with its error, leaving no file open', async () => {
    const before = openFiles();
    const damaged = await openPdfiumPageSource({ file: fileOf('malformed.pdf', MALFORMED_PDF) }, OPTIONS).then(() => undefined, (e: Error) => e);
    expect(damaged?.message).to.equal(PDF_MESSAGES.invalidPdf);
    const book = await pagedTextPdf([['A page that is cut short.']]);
    const cut = await openPdfiumPageSource({ file: fileOf('cut.pdf', book.subarray(0, book.length / 3)) }, OPTIONS).then(() => undefined, (e: Error) => e);
    expect(cut?.message).to.equal(PDF_MESSAGES.invalidPdf);
    const missing = await openPdfiumPageSource({ file: path.join(dir, 'absent.pdf') }, OPTIONS).then(() => undefined, (e: Error) => e);
    expect(missing?.message).to.match(/ENOENT/);
    expect(openFiles()).to.equal(before);
  });

  it('does not copy the file into its WebAssembly memory, which the bytes did', async function () {
    // 40 MB that no page uses (an attachment): from bytes PDFium holds them all, from the file it never reads them.
    const doc = await PDFDocument.load(await pagedTextPdf([['A report with a large attachment.']]));
    await doc.attach(crypto.randomBytes(40 * 1024 * 1024), 'data.bin', { mimeType: 'application/octet-stream' });
    const file = fileOf('attachment.pdf', await doc.save());
    // In processes of their own: WebAssembly memory only grows, so this process's PDFium has been grown by other tests.
    const growth = (source: string) => {
      const script = [
        "import fs from 'node:fs';",
        "import { openPdfiumPageSource, pdfiumMemoryBytes } from './adapters/extraction/pdfium-page-source.ts';",
        `const file = ${JSON.stringify(file)};`,
        "await (await openPdfiumPageSource(new Uint8Array(1), { maxPdfImagePixels: 1 }).catch(() => undefined))?.close();", // PDFium started
        'const before = await pdfiumMemoryBytes();',
        `const pdf = await openPdfiumPageSource(${source}, { maxPdfImagePixels: 50_000_000 });`,
        'const text = await pdf.text(1);',
        'console.log(JSON.stringify({ grew: (await pdfiumMemoryBytes()) - before, text }));',
      ].join('\n');
      const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 50_000 });
      expect(run.stderr).to.equal('');
      return JSON.parse(run.stdout) as { grew: number; text: string };
    };
    const fromFile = growth('{ file }');
    const fromBytes = growth('new Uint8Array(fs.readFileSync(file))');
    expect(fromFile.text).to.include('A report with a large attachment.');
    expect(fromBytes.text).to.equal(fromFile.text);
    // The memory it started with has some room: the bytes' copy grows it by less than 40 MB, but by far more than 4.
    expect(fromBytes.grew).to.be.above(24 * 1024 * 1024);
    expect(fromFile.grew).to.be.below(4 * 1024 * 1024);
  });
});

describeWithCorpus('PDFium reading from a file (corpus)', function () {
  this.timeout(120_000);

  it('reads every corpus PDF to the same text, or the same refusal, from its file as from its bytes', async () => {
    for (const name of listData('pdfs', /\.pdf$/)) {
      const outcome = (source: Uint8Array | { file: string }) => allText(source).then((pages) => ({ pages }), (e: Error) => ({ error: e.message }));
      const fromBytes = await outcome(readData(`pdfs/${name}`));
      expect(await outcome({ file: corpusPath(`pdfs/${name}`) }), name).to.deep.equal(fromBytes);
    }
  });
});
