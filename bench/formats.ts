/**
 * Issue 51: how fast each format without pages is read, and how much memory its reader takes. Each document is made
 * here (by the libraries the tests use), written to a file, and read by the DocumentExtractor in a fresh process of
 * its own (as an extraction process reads it): units per second (rows of a sheet or CSV, slides, sections, pages of
 * a TIFF or PNG) and that process's peak resident memory. Timings are noisy on a shared machine.
 *   npx tsx bench/formats.ts
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { strToU8 } from 'fflate';
import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import ExcelJS from 'exceljs';
import pptxgen from 'pptxgenjs';
import { DEFAULT_EXTRACTION_SETTINGS } from '../adapters/extraction/child-process-document-reader.js';
import { resolveDocumentKind } from '../adapters/extraction/content-type.js';
import { DocumentExtractor } from '../adapters/extraction/document-extractor.js';
import { textPng } from '../test/support/generated-documents.js';
import { DOCX_TYPE, mailWithPdf, multiPageTiff, PPTX_TYPE, XLSX_TYPE } from '../test/support/office-documents.js';

const SENTENCE = 'The committee reviewed the proposal in detail and agreed to revisit the schedule at the next meeting.';

interface Workload {
  name: string;
  unit: string;
  contentType: string;
  /** How many units (rows, slides, sections, pages) the document holds. */
  units: number;
  make(): Promise<Uint8Array>;
}

const workloads: Workload[] = [
  { name: 'xlsx', unit: 'rows', contentType: XLSX_TYPE, units: 50_000, make: () => workbook(50_000) },
  { name: 'csv', unit: 'rows', contentType: 'text/csv', units: 100_000, make: async () => strToU8(['Item,2019,2018', ...Array.from({ length: 99_999 }, (_, i) => `Item ${i},"${(i * 7).toLocaleString('en')}",${i * 3}`)].join('\n')) },
  { name: 'docx', unit: 'sections', contentType: DOCX_TYPE, units: 200, make: () => wordDocument(200) },
  { name: 'pptx', unit: 'slides', contentType: PPTX_TYPE, units: 200, make: () => deck(200) },
  { name: 'html', unit: 'sections', contentType: 'text/html', units: 500, make: async () => strToU8(`<html><body><h1>Minutes</h1>${Array.from({ length: 500 }, (_, i) => `<h2>Meeting ${i + 1}</h2><p>${SENTENCE.repeat(5)}</p><ul><li>First point</li><li>Second point</li></ul>`).join('')}</body></html>`) },
  { name: 'markdown', unit: 'sections', contentType: 'text/markdown', units: 500, make: async () => strToU8(`# Minutes\n\n${Array.from({ length: 500 }, (_, i) => `## Meeting ${i + 1}\n\n${SENTENCE.repeat(5)}\n\n- First point\n- Second point\n`).join('\n')}`) },
  { name: 'text', unit: 'MB', contentType: 'text/plain', units: 5, make: async () => strToU8(`${SENTENCE}\n\n`.repeat(Math.ceil((5 * 1_048_576) / (SENTENCE.length + 2)))) },
  { name: 'eml', unit: 'mails', contentType: 'message/rfc822', units: 1, make: () => mailWithPdf(SENTENCE.repeat(50), [SENTENCE]) },
  { name: 'png', unit: 'pages', contentType: 'image/png', units: 1, make: async () => textPng([SENTENCE.slice(0, 40), SENTENCE.slice(40, 80)], { width: 1400, height: 400, fontSize: 44 }) },
  { name: 'tiff', unit: 'pages', contentType: 'image/tiff', units: 4, make: async () => multiPageTiff(4) },
];

async function workbook(rows: number): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Data');
  sheet.addRow(['Item', 2019, 2018, 'Share', 'Note']);
  for (let i = 1; i < rows; i++) {
    const row = sheet.addRow([`Item ${i}`, i * 7.5, i * 3, (i % 100) / 100, i % 10 === 0 ? 'checked' : '']);
    row.getCell(2).numFmt = '#,##0.00';
    row.getCell(4).numFmt = '0%';
  }
  return new Uint8Array(await book.xlsx.writeBuffer());
}

async function wordDocument(sections: number): Promise<Uint8Array> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const children = Array.from({ length: sections }, (_, i) => [
    new Paragraph({ text: `${i + 1}. Clause ${i + 1}`, heading: HeadingLevel.HEADING_1 }),
    new Paragraph({ text: SENTENCE.repeat(4), alignment: AlignmentType.LEFT }),
    new Paragraph({ text: 'A point of the clause', bullet: { level: 0 } }),
    new Table({ rows: [['Fee', '2019', '2018'], ['Base', `${i},200`, `${i},100`]].map((r) => new TableRow({ children: r.map(cell) })) }),
  ]).flat();
  return new Uint8Array(await Packer.toBuffer(new Document({ sections: [{ children }] })));
}

async function deck(slides: number): Promise<Uint8Array> {
  const pres = new (pptxgen as unknown as { new (): import('pptxgenjs').default })();
  for (let i = 0; i < slides; i++) {
    const slide = pres.addSlide();
    slide.addText(`Topic ${i + 1}`, { x: 0.5, y: 0.3, w: 9, h: 0.8 });
    slide.addText([{ text: SENTENCE, options: { bullet: true } }, { text: 'Second point', options: { bullet: true } }], { x: 0.5, y: 1.5, w: 9, h: 2 });
    slide.addNotes(SENTENCE);
  }
  return new Uint8Array((await pres.write({ outputType: 'nodebuffer' })) as Buffer);
}

/** In the child: reads one file, prints {pages, ms, peakRssMb}. */
async function readOne(file: string, contentType: string): Promise<void> {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const extractor = new DocumentExtractor({ ...DEFAULT_EXTRACTION_SETTINGS, maxSheetRows: 1_000_000 });
  let pages = 0;
  const started = performance.now();
  await extractor.extract(bytes, resolveDocumentKind(bytes, contentType), { onPage: () => pages++, onProgress() {} });
  const ms = performance.now() - started;
  await extractor.close();
  console.log(JSON.stringify({ pages, ms, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-formats-'));
  const here = fileURLToPath(import.meta.url);
  try {
    console.log('| format | document | size | pages | read in | units per second | peak RSS of the reading process |');
    console.log('|---|---|---|---|---|---|---|');
    for (const workload of workloads) {
      const bytes = await workload.make();
      const file = path.join(dir, workload.name);
      fs.writeFileSync(file, bytes);
      const child = spawnSync(process.execPath, ['--import', 'tsx', here, '--read', file, workload.contentType], { encoding: 'utf8' });
      if (child.status !== 0) throw new Error(`${workload.name}: ${child.stderr}`);
      const { pages, ms, peakRssMb } = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { pages: number; ms: number; peakRssMb: number };
      const perSecond = workload.units / (ms / 1000);
      console.log(
        `| ${workload.name} | ${workload.units.toLocaleString('en')} ${workload.unit} | ${(bytes.length / 1_048_576).toFixed(1)} MB | ${pages} | ` +
          `${(ms / 1000).toFixed(2)} s | ${perSecond >= 100 ? Math.round(perSecond).toLocaleString('en') : perSecond.toFixed(1)} ${workload.unit}/s | ${Math.round(peakRssMb)} MB |`,
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--read') await readOne(process.argv[3]!, process.argv[4]!);
else await main();
