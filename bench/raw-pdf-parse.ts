/**
 * The ingestion-limits benchmark's baseline, run in a process of its own: plain pdf-parse text extraction of a whole
 * file (`node --import tsx bench/raw-pdf-parse.ts FILE`). Prints one JSON line: seconds, pages, peak RSS in MB.
 */
import fs from 'node:fs';
import { PDFParse } from 'pdf-parse';

const file = process.argv[2];
if (!file) throw new Error('usage: raw-pdf-parse.ts FILE');
const t0 = performance.now();
const parser = new PDFParse({ data: new Uint8Array(fs.readFileSync(file)) });
const result = await parser.getText();
const seconds = (performance.now() - t0) / 1000;
await parser.destroy();
// maxRSS is in kilobytes: the high-water mark of this whole process.
const peakRssMb = process.resourceUsage().maxRSS / 1024;
console.log(JSON.stringify({ seconds, pages: result.total, characters: result.text.length, peakRssMb }));
