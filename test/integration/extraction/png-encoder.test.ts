import zlib from 'node:zlib';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { expect } from 'chai';
import { encodePng } from '../../../adapters/extraction/png-encoder.js';

/** The pixels an independent decoder (Skia's, through @napi-rs/canvas) reads back from a PNG. */
async function decoded(png: Uint8Array): Promise<{ width: number; height: number; rgba: Uint8ClampedArray }> {
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return { width: image.width, height: image.height, rgba: context.getImageData(0, 0, image.width, image.height).data };
}

/** An opaque raster whose pixels all differ from their neighbours (so a swapped row or channel shows). */
function raster(width: number, height: number, pixel: (x: number, y: number) => [number, number, number, number]): Uint8ClampedArray {
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rgba.set(pixel(x, y), (y * width + x) * 4);
  return rgba;
}

/** The IHDR's colour type byte, after checking every chunk's CRC. */
function colourType(png: Uint8Array): number {
  const bytes = Buffer.from(png);
  expect([...bytes.subarray(0, 8)]).to.deep.equal([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const types: string[] = [];
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    types.push(bytes.toString('latin1', at + 4, at + 8));
    expect(bytes.readUInt32BE(at + 8 + length), `CRC of ${types.at(-1)}`).to.equal(zlib.crc32(bytes.subarray(at + 4, at + 8 + length)));
    at += 12 + length;
  }
  expect(types).to.deep.equal(['IHDR', 'IDAT', 'IEND']);
  return bytes[8 + 8 + 9];
}

describe('encodePng (page images)', () => {
  it('writes a grey page as 8-bit greyscale that a decoder reads back pixel for pixel', async () => {
    const rgba = raster(37, 23, (x, y) => {
      const v = (x * 7 + y * 13) % 256;
      return [v, v, v, 255];
    });
    const png = encodePng(rgba, 37, 23);
    expect(colourType(png)).to.equal(0);
    const back = await decoded(png);
    expect([back.width, back.height]).to.deep.equal([37, 23]);
    expect(Buffer.from(back.rgba).equals(Buffer.from(rgba))).to.equal(true);
  });

  it('keeps colour (RGB) when one pixel is not grey, and transparency (RGBA) when one is not opaque', async () => {
    const colour = raster(19, 11, (x, y) => [(x * 13) % 256, (y * 29) % 256, (x * y) % 256, 255]);
    const rgb = encodePng(colour, 19, 11);
    expect(colourType(rgb)).to.equal(2);
    expect(Buffer.from((await decoded(rgb)).rgba).equals(Buffer.from(colour))).to.equal(true);

    const almostGrey = raster(8, 8, () => [200, 200, 200, 255]);
    almostGrey.set([200, 200, 201, 255], 4 * 63);
    expect(colourType(encodePng(almostGrey, 8, 8))).to.equal(2);

    const seeThrough = raster(8, 8, () => [10, 10, 10, 255]);
    seeThrough[4 * 20 + 3] = 0;
    const rgbaPng = encodePng(seeThrough, 8, 8);
    expect(colourType(rgbaPng)).to.equal(6);
    const back = (await decoded(rgbaPng)).rgba;
    expect(back[4 * 20 + 3]).to.equal(0);
    expect(back[4 * 21 + 3]).to.equal(255);
  });

  it('refuses a raster whose length does not match its size', () => {
    expect(() => encodePng(new Uint8Array(10), 2, 2)).to.throw('expected 2x2x4 bytes, got 10');
  });
});
