import { expect } from 'chai';
import { PDFDocument, StandardFonts, degrees } from 'pdf-lib';
import type { PageArea } from '../../../core/ports/page-renderer.js';
import { normalizeExtractedText } from '../../../adapters/extraction/normalize-text.js';
import { openPdfPageSource } from '../../../adapters/extraction/open-pdf-page-source.js';
import { PDF_READERS, type PageRaster, type PdfPageSource, type PdfReaderName } from '../../../adapters/extraction/pdf-page-source.js';
import { findTextInOcrLines } from '../../../adapters/extraction/ocr-find-text.js';
import { area, findPassage, joinLineAreas } from '../../../adapters/extraction/passage-match.js';
import { describeWithCorpus } from '../../support/corpus.js';
import { readData, rotatedData } from '../../support/extraction-fixtures.js';

const OPTIONS = { maxPdfImagePixels: 50_000_000 };

/** The page text each range found covers (chars are one per code point here, as the readers give them). */
function found(page: string | string[], passage: string): string[] {
  const chars = typeof page === 'string' ? [...page] : page;
  return findPassage(chars, passage).map(({ start, end }) => chars.slice(start, end).join(''));
}

describe('findPassage: where a passage lies among a page\'s characters', () => {
  it('matches across line breaks and spaces that differ', () => {
    expect(found('Heading\nThe quick brown\nfox   jumps over\tthe lazy dog. More.', 'the quick brown fox jumps over the lazy dog.'))
      .to.deep.equal(['The quick brown\nfox   jumps over\tthe lazy dog.']);
  });

  it('matches a word broken by a hyphen at a line end, a ligature glyph and accents either way', () => {
    expect(found('under inter-\nnational law.', 'under international law')).to.deep.equal(['under inter-\nnational law.']);
    const ligatures = [...'The \ufb01nal \ufb01gures were']; // 'ﬁ' is one character of the page
    expect(findPassage(ligatures, 'the final figures were')).to.deep.equal([{ start: 0, end: 20 }]);
    expect(found(ligatures, 'nal figures were but')).to.deep.equal([]);
    expect(found(ligatures, 'he final figures were')).to.deep.equal(['he \ufb01nal \ufb01gures were']);
    expect(found('Le café était fermé à midi.', 'le cafe etait ferme a midi')).to.deep.equal(['Le café était fermé à midi.']);
    expect(found('Le cafe etait ferme a midi.', 'LE CAFÉ ÉTAIT FERMÉ À MIDI')).to.deep.equal(['Le cafe etait ferme a midi.']);
  });

  it('looks for the parts between "…" separately, and finds nothing for a passage not on the page', () => {
    const page = 'First part of the text is here. Some words left out of the excerpt. Second part of the text follows.';
    expect(found(page, '… First part of the text … Second part of the text …')).to.deep.equal(['First part of the text', 'Second part of the text']);
    expect(found(page, 'A sentence that is nowhere on this page at all.')).to.deep.equal([]);
    expect(found(page, '')).to.deep.equal([]);
  });

  it('does not look for a piece shorter than 12 letters and digits (it would match anywhere)', () => {
    const page = 'Net sales rose. Operating income fell sharply in the year.';
    expect(found(page, 'Net sales')).to.deep.equal([]); // 8 letters, though on the page
    expect(found(page, '… Net sales … operating income fell sharply …')).to.deep.equal(['Operating income fell sharply']);
    expect(found('abcdefghijk and more', 'abcdefghijk')).to.deep.equal([]); // 11
    expect(found('abcdefghijkl and more', 'abcdefghijkl')).to.deep.equal(['abcdefghijkl']); // 12
  });

  it('finds a passage that goes on overleaf as far as this page goes, sentence by sentence', () => {
    const page = 'Earlier text. The committee approved the budget. The vote was';
    expect(found(page, 'The committee approved the budget. The vote was unanimous after a long debate.'))
      .to.deep.equal(['The committee approved the budget.']);
  });

  it('finds a sentence or a table row without the heading from an earlier page a chunk carries in front of it', () => {
    const page = 'Net sales 2019 2018\nProducts $ 1,204 $ 1,187\nServices $ 310 $ 295\nThe increase came from new stores opened.';
    // "CONSOLIDATED RESULTS" and the column years were printed on the page before; the rest is on this one.
    expect(found(page, 'CONSOLIDATED RESULTS (in millions) The increase came from new stores opened.'))
      .to.deep.equal(['The increase came from new stores opened.']);
    expect(found(page, 'Year ended June 30 Products $ 1,204 $ 1,187 Services $ 310 $ 295'))
      .to.deep.equal(['Products $ 1,204 $ 1,187\nServices $ 310 $ 295']);
    // Halves too short to be told apart from other text on the page are not looked for.
    expect(found(page, 'Quarterly totals for stores 2019 2018 unaudited')).to.deep.equal([]);
  });

  it('finds a short table row the quote joined to rows in another order ("First … 8.40" before the header)', () => {
    const page = 'Low High\nFirst Quarter $ 5.99 $ 8.40\nSecond Quarter $ 4.79 $ 6.48\nThe office sets its prices each quarter.';
    expect(found(page, 'First Quarter $ 5.99 $ 8.40 Low High Second Quarter $ 4.79 $ 6.48 The office sets its prices each quarter.'))
      .to.deep.equal(['First Quarter $ 5.99 $ 8.40', 'Second Quarter $ 4.79 $ 6.48\nThe office sets its prices each quarter.']);
  });

  it('gives ranges in page order, overlapping ones merged', () => {
    const page = 'Alpha bravo charlie delta. Echo foxtrot golf hotel. India juliet kilo lima.';
    expect(found(page, '… India juliet kilo lima … Alpha bravo charlie delta …')).to.deep.equal(['Alpha bravo charlie delta.', 'India juliet kilo lima.']);
    const ranges = findPassage([...page], '… Alpha bravo charlie delta. Echo foxtrot … delta. Echo foxtrot golf hotel …');
    expect(ranges).to.deep.equal([{ start: 0, end: page.indexOf('hotel') + 6 }]);
  });

  it('takes in the marks that touch the words found (quotes, a full stop), not those past a space or a line end', () => {
    expect(found('He said “the fee is waived.” Then', 'the fee is waived')).to.deep.equal(['“the fee is waived.”']);
    expect(found('(twelve dollars), per month', 'twelve dollars')).to.deep.equal(['(twelve dollars),']);
    expect(found('the fee is waived .', 'the fee is waived')).to.deep.equal(['the fee is waived']);
    expect(found(['', ...'the fee is waived', '', '.'], 'the fee is waived')).to.deep.equal(['the fee is waived']);
  });

  it("skips the reader's generated characters ('') and still gives indices into the reader's list", () => {
    const chars = ['', '', ...'unusual', '', ...'wording', '', '', ...'here'];
    expect(findPassage(chars, 'unusual wording here')).to.deep.equal([{ start: 2, end: chars.length }]);
  });
});

describe('findTextInOcrLines: a passage among the words OCR read', () => {
  const word = (text: string, x0: number, y0: number) => ({ text, x0, y0, x1: x0 + 10 * text.length, y1: y0 + 20 });
  // A 1000 x 500 image: two lines of words, each word's box 10 pixels a letter wide, 20 high.
  const lines = [
    { words: [word('Total', 100, 100), word('due', 160, 100), word('today:', 200, 102)] },
    { words: [word('forty-two', 100, 140), word('dollars.', 200, 141), word('Thanks!', 290, 140)] },
  ];

  it('gives the box around the words the passage touches, one per line, as fractions of the image', () => {
    expect(findTextInOcrLines(lines, 1000, 500, 'Total due today: forty-two dollars.')).to.deep.equal([
      area(0.1, 0.2, 0.26, 0.244), // "Total due today:": from Total's left to today:'s right, its lowest word's bottom
      area(0.1, 0.28, 0.28, 0.322), // "forty-two dollars."
    ]);
  });

  it('finds nothing for words not read there, and nothing shorter than a piece', () => {
    expect(findTextInOcrLines(lines, 1000, 500, 'Total due tomorrow: fifty dollars')).to.deep.equal([]);
    expect(findTextInOcrLines(lines, 1000, 500, 'Thanks!')).to.deep.equal([]);
    expect(findTextInOcrLines([], 1000, 500, 'Total due today: forty-two dollars.')).to.deep.equal([]);
  });
});

describe('joinLineAreas and area', () => {
  const box = (x: number, y: number, width: number, height: number): PageArea => ({ x, y, width, height });

  it('makes the pieces of one line one area', () => {
    expect(joinLineAreas([box(0.1, 0.2, 0.2, 0.02), box(0.31, 0.201, 0.1, 0.02), box(0.415, 0.199, 0.05, 0.02)]))
      .to.deep.equal([area(0.1, 0.199, 0.465, 0.221)]);
  });

  it('joins along a line that runs down the page (a turned page), and keeps such lines apart', () => {
    const down = (x: number, y: number, width: number, height: number) => ({ ...box(x, y, width, height), down: true });
    // Two lines side by side, 0.005 apart: across the page they would be one line; running down they are two.
    expect(joinLineAreas([down(0.8, 0.1, 0.02, 0.3), down(0.775, 0.1, 0.02, 0.25)])).to.have.length(2);
    expect(joinLineAreas([down(0.8, 0.1, 0.02, 0.1), down(0.8, 0.205, 0.02, 0.1)])).to.deep.equal([area(0.8, 0.1, 0.82, 0.305)]);
    // A line across and a line down are never one.
    expect(joinLineAreas([box(0.1, 0.1, 0.2, 0.02), down(0.305, 0.1, 0.02, 0.02)])).to.have.length(2);
  });

  it('keeps two lines two, and two columns on one line apart', () => {
    const lines = [box(0.1, 0.2, 0.3, 0.02), box(0.1, 0.225, 0.3, 0.02)];
    expect(joinLineAreas(lines)).to.deep.equal(lines);
    const columns = [box(0.1, 0.2, 0.35, 0.02), box(0.47, 0.2, 0.35, 0.02)]; // gap 0.02 of the page's width
    expect(joinLineAreas(columns)).to.deep.equal(columns);
  });

  it('keeps an area on the page, rounded to 1/10,000', () => {
    expect(area(-0.1, 0.123456, 1.2, 0.5)).to.deep.equal({ x: 0, y: 0.1235, width: 1, height: 0.3765 });
  });
});

/** Intersection over union of two sets of areas, on a 1000×1000 grid over the page. */
function iou(a: readonly PageArea[], b: readonly PageArea[]): number {
  const N = 1000;
  const mask = (areas: readonly PageArea[]) => {
    const cells = new Uint8Array(N * N);
    for (const { x, y, width, height } of areas) {
      for (let r = Math.round(y * N); r < Math.round((y + height) * N); r++) cells.fill(1, r * N + Math.round(x * N), r * N + Math.round((x + width) * N));
    }
    return cells;
  };
  const [ma, mb] = [mask(a), mask(b)];
  let [both, either] = [0, 0];
  for (let i = 0; i < ma.length; i++) (both += ma[i] & mb[i]), (either += ma[i] | mb[i]);
  return either === 0 ? 0 : both / either;
}

async function withSource<T>(reader: PdfReaderName, bytes: Uint8Array, use: (pdf: PdfPageSource) => Promise<T>): Promise<T> {
  const pdf = await openPdfPageSource(reader, bytes.slice(), OPTIONS);
  try {
    return await use(pdf);
  } finally {
    await pdf.close();
  }
}

describe('PdfPageSource.findText on generated pages', function () {
  this.timeout(30_000);
  const [W, H, SIZE] = [612, 792, 12];
  const LINES = [
    { text: 'The quick brown fox jumps over the lazy dog.', x: 72, y: 700 },
    { text: 'Pack my box with five dozen liquor jugs.', x: 72, y: 684 },
    { text: 'Sphinx of black quartz, judge my vow.', x: 330, y: 500 },
  ];
  let bytes: Uint8Array;
  let boxes: { left: number; right: number; bottom: number; top: number }[]; // where each line's glyphs are, in points

  before(async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (const rotation of [0, 90]) {
      const page = doc.addPage([W, H]);
      for (const { text, x, y } of LINES) page.drawText(text, { x, y, size: SIZE, font });
      page.setRotation(degrees(rotation));
    }
    bytes = await doc.save();
    boxes = LINES.map(({ text, x, y }) => ({ left: x, right: x + font.widthOfTextAtSize(text, SIZE), bottom: y - 0.2 * SIZE, top: y + 0.8 * SIZE }));
  });

  /** A line's box as fractions of the page as shown: upright (origin top-left), or turned by /Rotate 90 (clockwise). */
  const expected = (line: number, rotation: 0 | 90) => {
    const { left, right, bottom, top } = boxes[line];
    return rotation === 0
      ? { left: left / W, right: right / W, top: 1 - top / H, bottom: 1 - bottom / H }
      : { left: bottom / H, right: top / H, top: left / W, bottom: right / W };
  };
  const TOLERANCE = 0.015;
  const expectAt = (found: PageArea, line: number, rotation: 0 | 90, label: string) => {
    const [want, got] = [expected(line, rotation), { left: found.x, right: found.x + found.width, top: found.y, bottom: found.y + found.height }];
    for (const edge of ['left', 'right', 'top', 'bottom'] as const) expect(got[edge], `${label}: ${edge}`).to.be.closeTo(want[edge], TOLERANCE);
  };
  const TWO_LINES = `${LINES[0].text} ${LINES[1].text}`;

  for (const reader of PDF_READERS) {
    it(`finds a sentence where it was drawn, one area per line, and nothing for text not there (${reader})`, async () => {
      await withSource(reader, bytes, async (pdf) => {
        const areas = await pdf.findText(1, TWO_LINES);
        expect(areas, reader).to.have.length(2);
        areas.forEach((a, line) => expectAt(a, line, 0, `${reader} line ${line + 1}`));
        const [third] = await pdf.findText(1, `… ${LINES[2].text} …`);
        expectAt(third, 2, 0, `${reader} line 3`);
        expect(await pdf.findText(1, 'This sentence was never drawn on the page.')).to.deep.equal([]);
        expect(await pdf.findText(1, 'lazy dog')).to.deep.equal([]); // on the page, but too short to look for
      });
    });

    it(`turns the areas with the page's /Rotate 90 (${reader})`, async () => {
      await withSource(reader, bytes, async (pdf) => {
        for (const line of [0, 2]) {
          const areas = await pdf.findText(2, LINES[line].text);
          expect(areas, `${reader} line ${line + 1}`).to.have.length(1);
          expectAt(areas[0], line, 90, `${reader} line ${line + 1}, turned`);
        }
        // Turned, the two lines run down the page side by side: still one area each.
        const areas = await pdf.findText(2, TWO_LINES);
        expect(areas, reader).to.have.length(2);
        areas.forEach((a, line) => expectAt(a, line, 90, `${reader} line ${line + 1}, turned`));
      });
    });
  }

  it('gives nearly the same areas with either reader, line by line', async () => {
    const [pdfjs, pdfium] = await Promise.all(PDF_READERS.map((reader) => withSource(reader, bytes, (pdf) => pdf.findText(1, TWO_LINES))));
    expect([pdfjs.length, pdfium.length]).to.deep.equal([2, 2]);
    for (let line = 0; line < 2; line++) expect(iou([pdfjs[line]], [pdfium[line]]), `line ${line + 1}`).to.be.at.least(0.6);
  });
});

describeWithCorpus('PdfPageSource.findText on real pages', function () {
  this.timeout(60_000);

  /** A passage as an answer's excerpt quotes it: ~300 characters from `from` of the way into the page's text. */
  async function excerpt(pdf: PdfPageSource, page: number, from: number): Promise<string> {
    const text = normalizeExtractedText(await pdf.text(page)).replace(/\s+/g, ' ');
    const start = Math.floor(text.length * from);
    return `… ${text.slice(start, start + 300)} …`;
  }

  /** Share of an area's pixels that are dark (all channels < 128) on the page as rendered for viewing. */
  function inkShare({ rgba, width, height }: PageRaster, a: PageArea): number {
    let [dark, all] = [0, 0];
    for (let y = Math.floor(a.y * height); y < Math.ceil((a.y + a.height) * height); y++) {
      for (let x = Math.floor(a.x * width); x < Math.ceil((a.x + a.width) * width); x++, all++) {
        const i = (y * width + x) * 4;
        if (rgba[i] < 128 && rgba[i + 1] < 128 && rgba[i + 2] < 128) dark++;
      }
    }
    return all === 0 ? 0 : dark / all;
  }

  /** Each reader's areas for the passage each reader's text gives (the excerpt may come from either). */
  async function findEverywhere(file: string, page: number, from: number) {
    const bytes = readData(file);
    const passages = await Promise.all(PDF_READERS.map((reader) => withSource(reader, bytes, (pdf) => excerpt(pdf, page, from))));
    const results: { reader: PdfReaderName; passage: string; areas: PageArea[]; render: PageRaster }[] = [];
    for (const reader of PDF_READERS) {
      await withSource(reader, bytes, async (pdf) => {
        const render = await pdf.renderForViewing(page, 1000, 3);
        for (const passage of passages) results.push({ reader, passage, areas: await pdf.findText(page, passage), render });
      });
    }
    return results;
  }

  for (const [file, page] of [['pdfs/dmca-summary-1998.pdf', 2], ['pdfs/latex-multicolumn.pdf', 1]] as const) {
    it(`finds an excerpt's passage on ink, with either reader alike (${file} page ${page})`, async () => {
      const results = await findEverywhere(file, page, 1 / 3);
      for (const { reader, passage, areas, render } of results) {
        const label = `${reader}: ${passage.slice(0, 40)}`;
        expect(areas.length, label).to.be.within(4, 12); // ~300 characters: a handful of lines
        // Lines found measure 7-33% dark pixels; the same area moved into the blank left margin, none.
        for (const a of areas) {
          expect(inkShare(render, a), `${label}: ${JSON.stringify(a)}`).to.be.above(0.03);
          expect(inkShare(render, { ...a, x: 0, width: 0.05 }), `${label}: margin`).to.equal(0);
        }
      }
      for (const passage of new Set(results.map((r) => r.passage))) {
        const [a, b] = PDF_READERS.map((reader) => results.find((r) => r.reader === reader && r.passage === passage)!);
        expect(a.areas.length, passage.slice(0, 40)).to.equal(b.areas.length);
        expect(iou(a.areas, b.areas), passage.slice(0, 40)).to.be.at.least(0.7);
      }
    });
  }

  it('finds a passage on a real page turned by /Rotate 90 where the upright page has it, turned, line by line', async () => {
    const [upright, turned] = [readData('pdfs/google-doc-document.pdf'), await rotatedData('pdfs/google-doc-document.pdf', 90)];
    for (const reader of PDF_READERS) {
      const passage = await withSource(reader, upright, (pdf) => excerpt(pdf, 1, 1 / 3));
      const want = (await withSource(reader, upright, (pdf) => pdf.findText(1, passage)))
        .map(({ x, y, width, height }) => ({ x: 1 - y - height, y: x, width: height, height: width })); // a quarter turn clockwise
      const got = await withSource(reader, turned, (pdf) => pdf.findText(1, passage));
      expect(want.length, reader).to.be.within(4, 12);
      expect(got.length, reader).to.equal(want.length);
      got.forEach((a, i) => expect(iou([a], [want[i]]), `${reader} line ${i + 1}`).to.be.at.least(0.8));
    }
  });

  it('finds a passage of a two-column page in its own column', async () => {
    for (const [from, inLeft] of [[1 / 3, true], [0.8, false]] as const) {
      for (const { reader, passage, areas } of await findEverywhere('pdfs/latex-multicolumn.pdf', 1, from)) {
        expect(areas, `${reader}: ${passage.slice(0, 40)}`).not.to.be.empty;
        for (const a of areas) {
          if (inLeft) expect(a.x + a.width, `${reader}: ${JSON.stringify(a)}`).to.be.at.most(0.52);
          else expect(a.x, `${reader}: ${JSON.stringify(a)}`).to.be.at.least(0.48);
        }
      }
    }
  });
});
