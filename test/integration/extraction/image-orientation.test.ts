import { createCanvas, Image } from '@napi-rs/canvas';
import { expect } from 'chai';
import { ChildProcessDocumentReader } from '../../../adapters/extraction/index.js';
import { openImagePages } from '../../../adapters/extraction/formats/image-pages.js';
import { imageOrientation } from '../../../adapters/extraction/formats/image-orientation.js';
import { readJpegHeader } from '../../../adapters/extraction/jpeg-header.js';
import { renderPageImage } from '../../../adapters/extraction/page-image.js';
import { readFixture, sidewaysText } from '../../support/generated-documents.js';
import { withHeicTransform, withPngOrientation, withWebpOrientation } from '../../support/image-orientation.js';

/** The mean of a JPEG's grey levels, 0 (black) to 255 (white). */
function meanBrightness(jpeg: Uint8Array): number {
  const picture = new Image();
  picture.src = Buffer.from(jpeg);
  const canvas = createCanvas(picture.width, picture.height);
  const context = canvas.getContext('2d');
  context.drawImage(picture, 0, 0);
  const { data } = context.getImageData(0, 0, picture.width, picture.height);
  let sum = 0;
  for (let i = 0; i < data.length; i += 4) sum += (data[i]! + data[i + 1]! + data[i + 2]!) / 3;
  return sum / (data.length / 4);
}

/** One word, big on a small picture: read in a second when upright, not at all when sideways. */
const WORD = { width: 320, height: 180, fontSize: 36, margin: 40 };
const SIDEWAYS_PNG = sidewaysText(['Tesseract.js'], WORD, 'image/png');
const SIDEWAYS_WEBP = sidewaysText(['Tesseract.js'], WORD, 'image/webp');

describe('EXIF orientation of PNG and WebP photos, and HEIC’s rotation and mirroring (issue 51)', function () {
  this.timeout(120_000);
  let reader: ChildProcessDocumentReader;
  before(() => {
    reader = new ChildProcessDocumentReader({ poolSize: 1 });
  });
  after(() => reader.close());
  const ocr = async (bytes: Uint8Array, contentType: string) => (await reader.read({ document: bytes, contentType }))[0]!.text;

  it('reads the orientation from a PNG’s eXIf chunk and a WebP’s EXIF chunk (either byte order, with or without "Exif\\0\\0")', () => {
    expect(imageOrientation('png', withPngOrientation(SIDEWAYS_PNG, 6, 'MM'))).to.equal(6);
    expect(imageOrientation('png', withPngOrientation(SIDEWAYS_PNG, 8, 'II'))).to.equal(8);
    expect(imageOrientation('webp', withWebpOrientation(SIDEWAYS_WEBP, 6))).to.equal(6);
    expect(imageOrientation('webp', withWebpOrientation(SIDEWAYS_WEBP, 3, true))).to.equal(3);
    // None written, or the chunk list cut short: upright, and no error.
    expect(imageOrientation('png', SIDEWAYS_PNG)).to.equal(1);
    expect(imageOrientation('webp', SIDEWAYS_WEBP)).to.equal(1);
    expect(imageOrientation('png', withPngOrientation(SIDEWAYS_PNG, 6).subarray(0, 45))).to.equal(1);
  });

  it('OCRs a sideways PNG and WebP photo upright when their orientation says so, and not without it', async () => {
    expect(await ocr(withPngOrientation(SIDEWAYS_PNG, 6), 'image/png')).to.include('Tesseract.js');
    expect(await ocr(withWebpOrientation(SIDEWAYS_WEBP, 6), 'image/webp')).to.include('Tesseract.js');
    // The same pixels without the tag stay sideways: the orientation is what made them readable.
    expect(await ocr(SIDEWAYS_PNG, 'image/png')).not.to.include('Tesseract.js');
    expect(await ocr(SIDEWAYS_WEBP, 'image/webp')).not.to.include('Tesseract.js');
  });

  it('draws the page of a sideways PNG and WebP upright and whole', async () => {
    const sideways = [['png', withPngOrientation(SIDEWAYS_PNG, 6)], ['webp', withWebpOrientation(SIDEWAYS_WEBP, 6)], ['webp', withWebpOrientation(SIDEWAYS_WEBP, 6, true)]] as const;
    for (const [kind, bytes] of sideways) {
      const image = await renderPageImage(bytes, kind, 1, 1600, 'pdfium');
      expect(readJpegHeader(image!.bytes), kind).to.include({ width: WORD.width, height: WORD.height });
      // A white page with one word: a picture turned twice, or cut, leaves a black (empty) part.
      expect(meanBrightness(image!.bytes), kind).to.be.above(220);
    }
  });

  it('takes a HEIC photo’s rotation (irot) and mirroring (imir) as libheif applies them, once', async () => {
    const decode = async (bytes: Uint8Array) => {
      const pages = await openImagePages('heic', bytes);
      try {
        return await pages.page(0);
      } finally {
        pages.close();
      }
    };
    const heic = readFixture('example.heic');
    const stored = await decode(heic);
    const pixel = (image: typeof stored, x: number, y: number) => [...image.rgba.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4)];
    const { width: w, height: h } = stored;
    // A quarter turn anti-clockwise: the stored top-right corner is the top-left one, columns become rows.
    const turned = await decode(withHeicTransform(heic, { rotate: 1 }));
    expect(turned).to.include({ width: h, height: w, orientation: 1 });
    for (const [x, y] of [[0, 0], [10, 700], [853, 1279], [400, 77]]) expect(pixel(turned, x!, y!), `${x},${y}`).to.deep.equal(pixel(stored, w - 1 - y!, x!));
    // Mirrored (axis 0: libheif turns the picture over top to bottom).
    const mirrored = await decode(withHeicTransform(heic, { mirror: 0 }));
    expect(mirrored).to.include({ width: w, height: h, orientation: 1 });
    for (const [x, y] of [[0, 0], [1279, 853], [640, 100]]) expect(pixel(mirrored, x!, y!), `${x},${y}`).to.deep.equal(pixel(stored, x!, h - 1 - y!));
    // Its page image is drawn as decoded (no second turn): the turned photo stays portrait.
    const page = await renderPageImage(withHeicTransform(heic, { rotate: 1 }), 'heic', 1, 1280, 'pdfium');
    expect(readJpegHeader(page!.bytes)).to.include({ width: 854, height: 1280 });
  });
});
