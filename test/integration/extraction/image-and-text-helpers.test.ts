import { expect } from 'chai';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { readJpegHeader } from '../../../adapters/extraction/jpeg-header.js';
import type { OcrImage } from '../../../adapters/extraction/ocr-image.js';
import { decodeJpeg, toOcrImage } from '../../../adapters/extraction/raster.js';
import { markParagraphBreaks, normalizeExtractedText } from '../../../adapters/extraction/normalize-text.js';
import { removeRunningHeaders, RunningHeaderRemover } from '../../../adapters/extraction/running-headers.js';
import { resolveDocumentKind } from '../../../adapters/extraction/content-type.js';
import { confidentText, englishLanguagePath, OcrEngine } from '../../../adapters/extraction/ocr-engine.js';
import { describeWithCorpus } from '../../support/corpus.js';
import { readData, withExifOrientation, withoutApp1Segments } from '../../support/extraction-fixtures.js';
import { pagedTextPdf, sidewaysTextJpeg, textJpeg } from '../../support/generated-documents.js';

// Generated pictures (the real photos of the corpus: the suite at the end).
const SIMPLE = { width: 320, height: 180, fontSize: 36, margin: 40 };
const UPRIGHT_JPEG = textJpeg(['Tesseract.js'], SIMPLE);
/** Stored 180x320, no EXIF: a photo taken sideways once withExifOrientation(…, 6) is added. */
const SIDEWAYS_JPEG = sidewaysTextJpeg(['Tesseract.js'], SIMPLE);
const PAGE_JPEG = textJpeg(['This is a lot of 12 point text to test the', 'ocr code and see if it works on all types', 'of file format.'], { width: 640, height: 480, fontSize: 28, margin: 30 });

/** Greyscale pixels (darkest channel, like toOcrImage) of a JPEG as Skia decodes it: Skia applies EXIF orientation. */
async function skiaUpright(jpeg: Uint8Array): Promise<{ grey: Uint8Array; width: number; height: number }> {
  const image = await loadImage(jpeg);
  const ctx = createCanvas(image.width, image.height).getContext('2d');
  ctx.drawImage(image, 0, 0);
  const rgba = ctx.getImageData(0, 0, image.width, image.height).data;
  const grey = new Uint8Array(image.width * image.height);
  for (let i = 0; i < grey.length; i++) grey[i] = Math.min(rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2]);
  return { grey, width: image.width, height: image.height };
}

function pgmPixels(image: OcrImage): Uint8Array {
  return image.pgm.subarray(image.pgm.length - image.width * image.height);
}

function meanAbsoluteDifference(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

describe('extraction helpers', () => {
  describe('JPEG header and orientation', () => {
    it('reads size and EXIF orientation, big-endian (MM) and little-endian (II)', () => {
      expect(readJpegHeader(withExifOrientation(SIDEWAYS_JPEG, 6, 'MM'))).to.deep.equal({ orientation: 6, width: 180, height: 320 });
      expect(readJpegHeader(UPRIGHT_JPEG)).to.deep.equal({ orientation: 1, width: 320, height: 180 });
      expect(readJpegHeader(textJpeg(['Total 24,23'], { width: 896, height: 2316 }))).to.deep.equal({ orientation: 1, width: 896, height: 2316 });
      const plain = UPRIGHT_JPEG;
      for (const order of ['II', 'MM'] as const) {
        for (let orientation = 1; orientation <= 8; orientation++) {
          expect(readJpegHeader(withExifOrientation(plain, orientation, order)).orientation).to.equal(orientation);
        }
      }
      expect(readJpegHeader(plain.subarray(0, 11)).width, 'cut before the frame header').to.equal(undefined);
    });

    it('turns all eight EXIF orientations upright, exactly as Skia does', async () => {
      const stored = SIDEWAYS_JPEG; // 180x320 as stored
      for (let orientation = 1; orientation <= 8; orientation++) {
        const jpeg = withExifOrientation(stored, orientation, orientation % 2 ? 'II' : 'MM');
        const ours = toOcrImage(decodeJpeg(jpeg), readJpegHeader(jpeg).orientation, 1e8);
        const skia = await skiaUpright(jpeg);
        expect([ours.width, ours.height], `orientation ${orientation}`).to.deep.equal([skia.width, skia.height]);
        // Two different JPEG decoders: ~0.3 grey levels apart; a wrong rotation or mirror is 3.9 to 5.6 apart.
        expect(meanAbsoluteDifference(pgmPixels(ours), skia.grey), `orientation ${orientation}`).to.be.below(1);
      }
      const upright = toOcrImage(decodeJpeg(stored), 1, 1e8);
      const turned = await skiaUpright(withExifOrientation(stored, 3, 'MM'));
      expect(meanAbsoluteDifference(pgmPixels(upright), turned.grey), 'sanity: 180 degrees apart').to.be.above(3);
    });

    it('decodes damaged JPEGs without native code: throws or decodes what is there', () => {
      // Inputs like these make @napi-rs/canvas's native decoder kill the process; here they may only throw.
      // Copies: a Buffer's slice() is a view, and the bytes flipped below would damage the suite's picture too.
      const full = new Uint8Array(PAGE_JPEG);
      expect(() => decodeJpeg(full.subarray(0, 11))).to.throw();
      const half = decodeJpeg(full.subarray(0, full.length / 2));
      expect([half.width, half.height]).to.deep.equal([640, 480]);
      let seed = 42;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      for (let i = 0; i < 40; i++) {
        const damaged = new Uint8Array(full.subarray(0, 2 + Math.floor(random() * full.length)));
        for (let flips = 0; flips < 8; flips++) damaged[Math.floor(random() * damaged.length)] = Math.floor(random() * 256);
        try {
          const canvas = decodeJpeg(damaged);
          expect(canvas.width * canvas.height).to.be.greaterThan(0);
        } catch (error) {
          expect(error).to.be.instanceOf(Error);
        }
      }
    });

    it('softens a photo drawn at 1:1 with [1, 16, 1] / 18 across and down, as canvas 0.1.x did (the OCR was tuned on it)', () => {
      const dot = createCanvas(9, 9);
      const ctx = dot.getContext('2d');
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, 9, 9);
      ctx.fillStyle = '#000000';
      ctx.fillRect(4, 4, 1, 1);
      const pixels = pgmPixels(toOcrImage(dot, 1, 1e8));
      const at = (x: number, y: number) => pixels[y * 9 + x];
      // The dot keeps 256/324 of its ink; its sides get 16/324 each, its corners 1/324 (rounded grey levels).
      expect([at(4, 4), at(3, 4), at(4, 5), at(3, 3), at(5, 5), at(2, 4), at(0, 0)]).to.deep.equal([54, 242, 242, 254, 254, 255, 255]);
    });

    it('scales huge images down to the pixel budget and writes a greyscale PGM', () => {
      const prepared = toOcrImage(decodeJpeg(textJpeg(['A large scan'], { width: 1275, height: 1650 })), 1, 600_000);
      expect(prepared.width * prepared.height).to.be.at.most(600_000);
      expect(prepared.width / prepared.height).to.be.closeTo(1275 / 1650, 0.01);
      const header = `P5\n${prepared.width} ${prepared.height}\n255\n`;
      expect(Buffer.from(prepared.pgm.subarray(0, header.length)).toString('latin1')).to.equal(header);
      expect(prepared.pgm.length).to.equal(header.length + prepared.width * prepared.height);
    });
  });

  describe('normalizeExtractedText', () => {
    it('collapses whitespace within lines, keeps lines and paragraph breaks', () => {
      expect(normalizeExtractedText('  a \t b\u00a0\u00a0c  \r\nsecond   line\n\n\n\n  next\tparagraph ')).to.equal(
        'a b c\nsecond line\n\nnext paragraph',
      );
    });

    it('joins words hyphenated at line ends, but not compounds within lines or dashes', () => {
      expect(normalizeExtractedText('an exam-\nple of dehyphen-\nation')).to.equal('an example of dehyphenation');
      expect(normalizeExtractedText('tip-toeing along')).to.equal('tip-toeing along');
      expect(normalizeExtractedText('pages 10 -\nand more')).to.equal('pages 10 -\nand more');
      expect(normalizeExtractedText('Nord-\nSüd')).to.equal('Nord-\nSüd'); // capital: a real hyphenated compound
      expect(normalizeExtractedText('para-\n\ngraph')).to.equal('para-\n\ngraph'); // never across paragraphs
      expect(normalizeExtractedText('Ge\u00adome\u00ad\ntrie')).to.equal('Geometrie'); // soft hyphens
    });

    it('joins a letter-spaced year on a line whose only figures are years (a column header), not in a row of figures', () => {
      expect(normalizeExtractedText('2019 2 0 1 8\nValuation allowance (19,911) (15,916)')).to.equal('2019 2018\nValuation allowance (19,911) (15,916)');
      expect(normalizeExtractedText('Rooms 2 0 1 9 12,000')).to.equal('Rooms 2 0 1 9 12,000');
    });

    it('drops control and zero-width characters', () => {
      expect(normalizeExtractedText('habibi\u0003 x\u200by\ffoo')).to.equal('habibi xy\nfoo');
    });
  });

  describe('declared type checks', () => {
    it('accepts a PDF header after leading junk, within the first 1024 bytes', async () => {
      const pdf = await pagedTextPdf([['A page with text.']]);
      const withJunk = new Uint8Array([...new Uint8Array(100).fill(0x20), ...pdf.subarray(0, 2000)]);
      expect(resolveDocumentKind(withJunk, 'application/pdf')).to.equal('pdf');
      const tooLate = new Uint8Array([...new Uint8Array(2000).fill(0x20), ...pdf.subarray(0, 2000)]);
      expect(() => resolveDocumentKind(tooLate, 'application/pdf')).to.throw(/not a PDF/);
    });
  });

  it('uses the OCR model installed with @tesseract.js-data/eng (never a CDN)', () => {
    expect(englishLanguagePath()).to.match(/@tesseract\.js-data\/eng\/4\.0\.0_best_int$/);
  });
});

describe('OCR lines kept (confidentText)', () => {
  it('leaves out lines OCR doubts and keeps the paragraph break one of them ended', () => {
    const lines = [
      { text: '1 L Te TA ma F\n', confidence: 2 },
      { text: 'MESSAGE OF THE\n', confidence: 96 },
      { text: 'PRESIDENT\n\n', confidence: 95 },
      { text: 'A copy of regulations\n', confidence: 92 },
      { text: 'Mad) / 4 & £\n\n', confidence: 8 },
      { text: 'THEY TIP-TOED ALONG.\n', confidence: 30 },
    ];
    expect(confidentText(lines)).to.equal('MESSAGE OF THE\nPRESIDENT\n\nA copy of regulations\n\nTHEY TIP-TOED ALONG.\n');
    expect(confidentText(lines.map((line) => ({ ...line, confidence: 90 }))), 'every line kept: OCR’s own text').to.equal(lines.map((l) => l.text).join(''));
  });

  it('reads a clear page whole, as tesseract.js’s own text', async () => {
    const engine = new OcrEngine();
    try {
      const { pgm } = toOcrImage(decodeJpeg(PAGE_JPEG), 1, 4_000_000);
      const lines = await engine.readLines(pgm, 'block');
      expect(lines.map((line) => line.confidence).every((c) => c >= 30), 'printed text is read with confidence').to.equal(true);
      expect(await engine.recognize(pgm, 'block')).to.equal(lines.map((line) => line.text).join('')).and.to.include('of file format.');
    } finally {
      await engine.terminate();
    }
  });
});

describe('markParagraphBreaks', () => {
  it('ends a paragraph after a short line that closes a sentence, and nowhere else', () => {
    const text = [
      'The first paragraph starts here and runs across the whole width of the page,',
      'continuing on a second line that is just as long as the first one was here.',
      'It ends on this short line.',
      'A second paragraph begins with a capital letter and runs the full width too,',
      'and its last line is long, so the next line starts no new paragraph here.',
      'Continuing text.',
    ].join('\n');
    const marked = markParagraphBreaks(text).split('\n');
    expect(marked.indexOf('')).to.equal(3);
    expect(marked.filter((l) => l === '')).to.have.length(1);
  });

  it('leaves short texts alone', () => {
    expect(markParagraphBreaks('One line.\nTwo.')).to.equal('One line.\nTwo.');
  });
});

describe('removeRunningHeaders', () => {
  it('drops a header and a footer repeated on most pages, page numbers and all, and keeps the body', () => {
    const bodies = ['Revenue grew.\nCosts fell.', 'Staff joined.\nOffices opened.', 'Sales rose.\nDebt shrank.', 'Plans follow.\nThe end.'];
    const pages = bodies.map((body, i) => `Annual Report 2024\n${body}\nPage ${i + 1} of 4`);
    const cleaned = removeRunningHeaders(pages);
    expect(cleaned[2]).to.equal('Sales rose.\nDebt shrank.');
    expect(removeRunningHeaders(['Total: 1\nTotal: 2', 'Total: 3\nTotal: 4', 'Total: 5\nTotal: 6'])).to.deep.equal(['Total: 1\nTotal: 2', 'Total: 3\nTotal: 4', 'Total: 5\nTotal: 6']);
  });

  it('drops a header whose page number stands on the outer edge, left on even pages and right on odd ones', () => {
    // The Federal Register prints "47700 Federal Register / Vol. 85 …" and "Federal Register / Vol. 85 … 47701"; of 9
    // pages, the right-hand form is on 4, under half.
    const header = 'Federal Register / Vol. 85, No. 152 / Thursday, August 6, 2020 / Proposed Rules';
    const bodies = ['Revenue grew.', 'Costs fell.', 'Staff joined.', 'Offices opened.', 'Sales rose.', 'Debt shrank.', 'Plans follow.', 'Prices held.', 'The end.'];
    const pages = bodies.map((body, i) => `${i % 2 === 0 ? `${47700 + i} ${header}` : `${header} ${47700 + i}`}\n${body}`);
    const cleaned = removeRunningHeaders(pages);
    expect(cleaned.slice(3, 5)).to.deep.equal(['Offices opened.', 'Sales rose.']);
  });

  it('drops a footer with a line of the page’s own under it', () => {
    // shared/data/pdfs/federal-register-2020-17221.pdf: pages with a figure end on the printer's and typist's lines,
    // then the figure's tag, which differs from page to page.
    const bodies = ['Revenue grew.', 'Costs fell.', 'Staff joined.', 'Offices opened.', 'Sales rose.'];
    const pages = bodies.map((body, i) => `${body.split(' ')[0]} first\nOn ${body.split(' ')[1]}\n${body}\nVerDate Sep<11>2014 16:21 Aug 05, 2020 Frm 0000${i + 1}\njbell on DSKJLSW7X2PROD with PROPOSALS\n${i % 2 ? `EP06AU20.01${i}</GPH>` : `More on ${bodies[i].split(' ')[0]}.`}`);
    const cleaned = removeRunningHeaders(pages);
    expect(cleaned[1]).to.equal('Costs first\nOn fell.\nCosts fell.\nEP06AU20.011</GPH>');
    expect(cleaned[2]).to.equal('Staff first\nOn joined.\nStaff joined.\nMore on Staff.');
  });

  it('drops a running title the reading order put mid-text, except on the first page', () => {
    // shared/data/pdfs/irs-i1040nr-2007.pdf: the footer under the left column is read before the right column.
    const title = 'Instructions for Form 1040NR';
    const page = (body: string, middle: string) => {
      const [a, b] = body.split(' ');
      return [`${a} first`, `On ${b}`, `${a} notes begin`, `Keep ${a} records until the`, middle, `rules allow ${b} again.`, body, `More of ${a}`, `And then ${b}`, `End of ${body}`].join('\n');
    };
    const bodies = ['Revenue grew.', 'Costs fell.', 'Staff joined.', 'Offices opened.', 'Sales rose.'];
    const cleaned = removeRunningHeaders(bodies.map((body) => page(body, title)));
    expect(cleaned[0]).to.equal(page(bodies[0], title));
    // Nor as the first page's third line (shared/data/pdfs/dmca-summary-1998.pdf as pdf.js orders it).
    const titled = [`Report\nof 1998\n${title}\nIt begins here.\nAnd it goes on.\nTo its end.`, ...bodies.slice(1).map((body) => page(body, title))];
    expect(removeRunningHeaders(titled)[0]).to.equal(titled[0]);
    expect(cleaned[3]).to.equal(page(bodies[3], title).replace(`${title}\n`, ''));
    // A sentence repeated on every page stays: it is text, not a title.
    const said = removeRunningHeaders(bodies.map((body) => page(body, 'This form is yours to keep.')));
    expect(said[3]).to.equal(page(bodies[3], 'This form is yours to keep.'));
  });

  it('keeps lines that repeat on fewer than half the pages, and short documents as they are', () => {
    const pages = ['Chapter 1\nText one.', 'Chapter 1\nText two.', 'Other\nText three.', 'Other 2\nText four.', 'Else\nText five.', 'More\nText six.', 'Last\nText seven.'];
    expect(removeRunningHeaders(pages)).to.deep.equal(pages);
    expect(removeRunningHeaders(['Same\nA.', 'Same\nB.'])).to.deep.equal(['Same\nA.', 'Same\nB.']);
  });

  it('judges a long merged document in windows, so each report loses its own header', () => {
    // Three reports merged, 27, 27 and 26 pages, each with its own header; windows of 2 × 5 + 1 pages.
    const word = (i: number) => 'alpha bravo charlie delta echo foxtrot golf hotel india juliet'.split(' ')[i % 10];
    const body = (i: number) => `Body of ${word(i)} ${word(Math.floor(i / 10))}.\nMore on ${word(i * 3)} ${word(Math.floor(i / 10))}.`;
    const pages = Array.from({ length: 80 }, (_, i) => `Report ${'ABC'[Math.floor(i / 27)]} annual review\n${body(i)}`);
    const whole = removeRunningHeaders(pages, 1_000);
    expect(whole[10]).to.equal(pages[10], 'over the whole file neither header is on half the pages');
    const windowed = removeRunningHeaders(pages, 5);
    expect(windowed[10]).to.equal(body(10));
    expect(windowed[70]).to.equal(body(70));
  });

  it('passes pages on, in order and once each, half a window behind the reading', () => {
    const released: Array<[number, number]> = [];
    const texts: string[] = [];
    const remover = new RunningHeaderRemover((batch, first) => {
      released.push([first, batch.length]);
      texts.push(...batch);
    }, 5);
    const words = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar'.split(' ');
    const pages = Array.from({ length: 30 }, (_, i) => `Header\nBody of ${words[i % 15]} ${words[(i * 7) % 15]}.`);
    for (const [i, page] of pages.entries()) {
      remover.push(page);
      expect(texts.length).to.equal(i + 1 >= 11 ? i + 1 - 5 : 0, `after page ${i + 1}`);
    }
    remover.end();
    expect(texts).to.deep.equal(pages.map((page) => page.replace('Header\n', '')));
    expect(released[0]).to.deep.equal([0, 6]);
    expect(released.at(-1)).to.deep.equal([25, 5]);
  });
});

describeWithCorpus('JPEG header of real photos', () => {
  it('reads size and EXIF orientation as cameras and scanners write them', () => {
    expect(readJpegHeader(readData('images/tesseractjs_simple-90.jpg'))).to.deep.equal({ orientation: 6, width: 180, height: 320 });
    expect(readJpegHeader(readData('images/tesseractjs_simple.jpg'))).to.deep.equal({ orientation: 1, width: 320, height: 180 });
    expect(readJpegHeader(readData('images/receipt_aldi_02032020_19_02423.jpg'))).to.deep.equal({ orientation: 1, width: 896, height: 2316 });
    const stored = withoutApp1Segments(readData('images/tesseractjs_simple-90.jpg'));
    expect(readJpegHeader(stored)).to.deep.equal({ orientation: 1, width: 180, height: 320 });
  });

  it('scales a large real scan down to the pixel budget', () => {
    const prepared = toOcrImage(decodeJpeg(readData('images/linn_sequencer.jpg')), 1, 2_000_000);
    expect(prepared.width * prepared.height).to.be.at.most(2_000_000);
    expect(prepared.width / prepared.height).to.be.closeTo(2550 / 3300, 0.01);
  });
});
