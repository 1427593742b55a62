import { expect } from 'chai';
import { strToU8 } from 'fflate';
import { UnprocessableDocumentError } from '../../../core/domain/errors.js';
import type { ExtractedPage } from '../../../core/domain/model.js';
import type { DocumentAttachment } from '../../../core/ports/document-reader.js';
import { ChildProcessDocumentReader } from '../../../adapters/extraction/index.js';
import { pagedTextPdf, readFixture, textJpeg, textPng, textWebp } from '../../support/generated-documents.js';
import {
  blankPagesTiff, budgetXlsx, contractDocx, mailWithAttachments, deckPptx, DOCX_TYPE, multiPageTiff, PPTX_TYPE, withBombPart, withEntityExpansion, withMacros, XLSX_TYPE,
} from '../../support/office-documents.js';
import { rejection } from '../../support/extraction-processes.js';

const text = (pages: ExtractedPage[]) => pages.map((p) => p.text).join('\n');

describe('ChildProcessDocumentReader: Word, Excel, PowerPoint, HTML, Markdown, text, CSV, e-mail, PNG, TIFF (issue 51)', function () {
  this.timeout(120_000);
  let reader: ChildProcessDocumentReader;
  before(() => {
    reader = new ChildProcessDocumentReader({ poolSize: 1, maxSheetRows: 1_000, maxUnpackedBytes: 16 * 1_048_576, maxOcrPages: 3 });
  });
  after(() => reader.close());
  const read = (document: Uint8Array, contentType: string) => reader.read({ document, contentType });

  it('reads a Word document: a page per section, headings, lists and a table as rows the table reader takes', async () => {
    const pages = await read(await contractDocx(), DOCX_TYPE);
    const termination = pages.find((p) => p.text.startsWith('7. Termination'));
    expect(termination?.text).to.include('ninety days notice');
    expect(text(pages)).to.include('- Weekly inspection of every camera');
    expect(text(pages)).to.include('Fee 2019 2018\nMaintenance fee 4,200 3,900');
  });

  it('reads an Excel workbook: a page per sheet, values as Excel shows them', async () => {
    const pages = await read(await budgetXlsx(), XLSX_TYPE);
    expect(pages.map((p) => p.text.split('\n')[0])).to.deep.equal(['Sheet Q3', 'Sheet Staff']);
    expect(pages[0]!.text).to.include('Travel budget 12,500 11,800.50').and.include('Share of total 25% 30%');
    expect(pages[1]!.text).to.include('Ada Lovelace | Analyst | 2019-03-15');
  });

  it('reads a PowerPoint deck: a page per slide with its title, bullets, notes and table', async () => {
    const pages = await read(await deckPptx(), PPTX_TYPE);
    expect(pages).to.have.length(3);
    expect(pages[1]!.text).to.match(/^Slide 2: Timeline/).and.include('- New pier opens in June').and.include('Notes:\n\nRemind the council');
    expect(pages[2]!.text).to.include('Dredging 2,400 1,900');
  });

  it('reads HTML without its scripts and styles, Markdown with its structure, text as written, and CSV as a table', async () => {
    const html = await read(strToU8('<html><head><style>.x{color:red}</style><script>var token="leak"</script></head><body onload="steal()"><h1>Opening hours</h1><p>The museum opens at <b>ten</b>.</p><script>document.write("injected")</script><table><tr><th></th><th>2019</th><th>2018</th></tr><tr><td>Visitors</td><td>12,400</td><td>11,900</td></tr></table></body></html>'), 'text/html');
    expect(text(html)).to.include('Opening hours').and.include('The museum opens at ten.').and.include('Visitors 12,400 11,900');
    expect(text(html)).not.to.match(/leak|injected|steal|color/);
    const markdown = await read(strToU8('# Setup\n\nInstall it first.\n\n1. Download\n2. Run\n\n# Usage\n\n| Step | 2019 | 2018 |\n|---|---|---|\n| Runs | 40 | 35 |\n| Fails | 2 | 3 |\n'), 'text/markdown');
    expect(markdown.map((p) => p.text.split('\n')[0])).to.deep.equal(['Setup', 'Usage']);
    expect(markdown[0]!.text).to.include('1. Download\n2. Run');
    expect(markdown[1]!.text).to.include('Runs 40 35');
    const plain = await read(strToU8('Shopping list\n- bread\n- milk\n'), 'text/plain');
    expect(plain[0]!.text).to.equal('Shopping list\n- bread\n- milk');
    const csv = await read(strToU8('Item;2019;2018\nRent;"1,200";1100\n'), 'text/csv');
    expect(csv[0]!.text).to.equal('Item 2019 2018\nRent 1,200 1100');
  });

  it('reads an e-mail: headers as metadata and the body as its page; its attachments reported as documents of their own', async () => {
    const pdf = await pagedTextPdf([['Attached invoice: the harbour dues for May are 310 euros.']]);
    const photo = textPng(['Receipt: paid'], { width: 500, height: 200, fontSize: 40 });
    const mail = mailWithAttachments('Hello, the invoice for the mooring is attached. Please pay by the end of June.', [
      { filename: 'invoice.pdf', contentType: 'application/pdf', bytes: pdf },
      { filename: 'receipt.png', contentType: 'application/octet-stream', bytes: photo },
    ]);
    const reported: DocumentAttachment[][] = [];
    const pages = await reader.read({ document: mail, contentType: 'message/rfc822', onAttachments: (found) => reported.push(found) });
    expect(pages).to.have.length(1);
    expect(pages[0]!.text).to.include('From: Harbour Office <office@harbour.example>').and.include('Subject: Dues for May')
      .and.include('Attachments: invoice.pdf, receipt.png').and.include('Please pay by the end of June.').and.not.include('310 euros');
    expect(reported).to.have.length(1);
    expect(reported[0]!.map(({ filename, contentType }) => ({ filename, contentType }))).to.deep.equal([
      { filename: 'invoice.pdf', contentType: 'application/pdf' },
      { filename: 'receipt.png', contentType: 'application/octet-stream' },
    ]);
    expect(Buffer.from(reported[0]![0]!.bytes).equals(Buffer.from(pdf))).to.equal(true);
    expect(Buffer.from(reported[0]![1]!.bytes).equals(Buffer.from(photo))).to.equal(true);
    // A run going on past the mail's page is told them again, and reads no page.
    const again: DocumentAttachment[][] = [];
    expect(await reader.read({ document: mail, contentType: 'message/rfc822', firstPage: 2, onAttachments: (found) => again.push(found) })).to.deep.equal([]);
    expect(again.map((list) => list.map((a) => a.filename))).to.deep.equal([['invoice.pdf', 'receipt.png']]);
  });

  it('reads a PNG screenshot and every page of a TIFF by OCR', async () => {
    const png = await read(textPng(['Screenshot of the', 'booking page'], { width: 700, height: 300, fontSize: 48 }), 'image/png');
    expect(png[0]).to.include({ method: 'ocr' });
    expect(png[0]!.text).to.match(/booking page/i);
    const tiff = await read(multiPageTiff(2), 'image/tiff');
    expect(tiff.map((p) => p.text)).to.have.length(2);
    expect(tiff[1]!.text).to.match(/Page 2 of the fax/i);
  });

  it('reads a WebP image by OCR, and decodes a HEIC photo (libheif\'s example)', async () => {
    const webp = await read(textWebp(['Tickets are sold', 'at the harbour kiosk'], { width: 800, height: 300, fontSize: 48 }), 'image/webp');
    expect(webp[0]!.text).to.match(/harbour kiosk/i);
    // Decoded (1280×854) and read by OCR as one page: the photo holds no sentence to check, only that it was read.
    const heic = await read(readFixture('example.heic'), 'image/heic');
    expect(heic).to.have.length(1);
    expect(heic[0]).to.include({ page: 1, method: 'ocr' });
  });

  describe('hostile files: refused or bounded with a reason, in the extraction process, and the reader keeps serving', () => {
    it('refuses a zip bomb inside a Word, Excel or PowerPoint file before inflating it', async () => {
      const docx = await rejection(read(withBombPart(await contractDocx(), 'word/document2.xml', 16), DOCX_TYPE));
      expect(docx).to.be.instanceOf(UnprocessableDocumentError);
      expect(docx.message).to.match(/zip bomb/);
      const xlsx = await rejection(read(withBombPart(await budgetXlsx(), 'xl/worksheets/sheet1.xml', 16), XLSX_TYPE));
      expect(xlsx.message).to.match(/zip bomb/);
      const pptx = await rejection(read(withBombPart(await deckPptx(), 'ppt/slides/slide1.xml', 16), PPTX_TYPE));
      expect(pptx.message).to.match(/zip bomb/);
    });

    it('refuses XML entity expansion ("billion laughs") in an Office part', async () => {
      const error = await rejection(read(withEntityExpansion(await contractDocx(), 'word/document.xml', 'w:document'), DOCX_TYPE));
      expect(error.message).to.match(/declares XML entities/);
      const sheet = await rejection(read(withEntityExpansion(await budgetXlsx(), 'xl/sharedStrings.xml', 'sst'), XLSX_TYPE));
      expect(sheet.message).to.match(/declares XML entities/);
    });

    it('ignores macros: a macro-laden file is read as text, its VBA never read', async () => {
      const pages = await read(withMacros(await contractDocx(), 'word'), DOCX_TYPE);
      expect(text(pages)).to.include('ninety days notice').and.not.include('AutoOpen');
      const sheets = await read(withMacros(await budgetXlsx(), 'xl'), XLSX_TYPE);
      expect(text(sheets)).to.include('Travel budget').and.not.include('Shell');
    });

    it('bounds sheets by MAX_SHEET_ROWS (here 1,000): a longer workbook or CSV fails saying so', async () => {
      const xlsx = await rejection(read(await budgetXlsx(5_000), XLSX_TYPE));
      expect(xlsx.message).to.match(/more than 1000 rows.*MAX_SHEET_ROWS=1000/);
      const csv = await rejection(read(strToU8(Array.from({ length: 2_000 }, (_, i) => `row ${i},${i}`).join('\n')), 'text/csv'));
      expect(csv.message).to.match(/MAX_SHEET_ROWS/);
    });

    it('bounds a TIFF of many pages by the OCR budget (MAX_OCR_PAGES, here 3): later pages are skipped, not read', async () => {
      const error = await rejection(read(blankPagesTiff(1_000), 'image/tiff'));
      // Blank pages have no text: the document fails as unreadable, after OCR of 3 pages only.
      expect(error.message).to.equal("The document contains no readable text in its first 3 scanned pages; 997 more were not OCR'd (at most 3 per document, MAX_OCR_PAGES)");
      // A chain of pages that loops back to its first page (utif2 alone would follow it for ever).
      const looping = blankPagesTiff(3);
      const view = new DataView(looping.buffer);
      const lastNext = 8 + 2 * (2 + 9 * 12 + 4) + 2 + 9 * 12;
      view.setUint32(lastNext, 8, true);
      expect((await rejection(read(looping, 'image/tiff'))).message).to.equal('The TIFF image is damaged: its chain of pages loops');
    });

    it('refuses a mislabelled file by its content, with what it is', async () => {
      const pdfAsWord = await rejection(read(await pagedTextPdf([['A PDF in disguise.']]), DOCX_TYPE));
      expect(pdfAsWord.message).to.equal(`The file content is a PDF, not a zip package, although it was declared as ${DOCX_TYPE}`);
      const wordAsExcel = await rejection(read(await contractDocx(), XLSX_TYPE));
      expect(wordAsExcel.message).to.match(/not an Excel workbook/);
      const photoAsText = await rejection(read(textJpeg(['x']), 'text/plain'));
      expect(photoAsText.message).to.match(/is a JPEG image, not text/);
      const binaryAsText = await rejection(read(new Uint8Array([0x41, 0x00, 0x42, 0x00, 0x43]), 'text/plain'));
      expect(binaryAsText.message).to.match(/binary, not text/);
    });

    it('still reads a plain document after all of these', async () => {
      const pages = await read(strToU8('Still serving.'), 'text/plain');
      expect(pages[0]!.text).to.equal('Still serving.');
    });
  });
});
