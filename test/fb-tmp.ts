import fs from 'node:fs';
import { DocumentExtractor } from '../adapters/extraction/document-extractor.js';
import { DEFAULT_EXTRACTION_SETTINGS } from '../adapters/extraction/child-process-document-reader.js';
import { documentKindClassifier, classifyPages } from '../adapters/document-kinds/index.js';
const dir = '../shared/data/financebench/pdfs/';
const ex = new DocumentExtractor(DEFAULT_EXTRACTION_SETTINGS);
for (const f of fs.readdirSync(dir)) {
  const tally = documentKindClassifier.start();
  let n = 0;
  await ex.extract(new Uint8Array(fs.readFileSync(dir + f)), 'pdf', { onPage: (p) => { tally.addPage(p.text); n++; }, onProgress: () => {} });
  console.log(f, n, tally.kind());
}
await ex.close();
