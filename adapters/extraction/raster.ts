import { createCanvas, ImageData, type Canvas, type Image } from '@napi-rs/canvas';
import { JpegImage, setVerbosityLevel, VerbosityLevel } from 'pdfjs-dist/legacy/image_decoders/pdf.image_decoders.mjs';
import { darkestChannelPgm, type OcrImage } from './ocr-image.js';

// Truncated photos still decode (the missing part is grey); pdf.js would log a warning for each.
setVerbosityLevel(VerbosityLevel.ERRORS);

/**
 * Decodes an uploaded JPEG with pdf.js's pure-JavaScript decoder. Not with @napi-rs/canvas: its native decoder
 * crashes its process (SIGSEGV / Rust panic, uncatchable) on malformed input such as a JPEG cut off inside its
 * headers; a JS decoder can only throw. (Extraction runs in child processes, so such a crash would cost one document,
 * not the server, but it is still a failed upload.)
 */
export function decodeJpeg(jpeg: Uint8Array): Canvas {
  const decoder = new JpegImage();
  decoder.parse(jpeg);
  const { width, height } = decoder;
  // forceRGB covers grey, YCbCr, RGB and CMYK JPEGs; anything else (2 components) has a different length.
  const rgb = decoder.getData({ width, height, forceRGB: true });
  if (rgb.length !== width * height * 3) throw new Error(`Unsupported JPEG colour layout (${decoder.numComponents} components)`);
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let src = 0, dst = 0; src < rgb.length; src += 3, dst += 4) {
    rgba[dst] = rgb[src];
    rgba[dst + 1] = rgb[src + 1];
    rgba[dst + 2] = rgb[src + 2];
    rgba[dst + 3] = 255;
  }
  const canvas = createCanvas(width, height);
  canvas.getContext('2d').putImageData(new ImageData(rgba, width, height), 0, 0);
  return canvas;
}

/** Decoded RGBA pixels (a PNG, TIFF, WebP or HEIC page) on a canvas, for toOcrImage. */
export function rgbaCanvas(rgba: Uint8ClampedArray, width: number, height: number): Canvas {
  const canvas = createCanvas(width, height);
  canvas.getContext('2d').putImageData(new ImageData(rgba, width, height), 0, 0);
  return canvas;
}

/**
 * Turns an image upright (EXIF orientation), bounds its size and converts it to greyscale for OCR.
 * Greyscale uses the darkest channel rather than luminance: on the receipt scans in our test data it kept faint
 * thermal print legible against coloured backgrounds and logos (all 7 totals read at every scale we tried from
 * 0.8x to 1.6x, against 4 of 9 scales with luminance).
 */
export function toOcrImage(source: Canvas | Image, orientation: number, maxPixels: number): OcrImage {
  const swap = orientation >= 5 && orientation <= 8;
  const uprightWidth = swap ? source.height : source.width;
  const uprightHeight = swap ? source.width : source.height;
  const scale = Math.min(1, Math.sqrt(maxPixels / (uprightWidth * uprightHeight)));
  const width = Math.max(1, Math.round(uprightWidth * scale));
  const height = Math.max(1, Math.round(uprightHeight * scale));

  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff'; // transparent areas of a PNG would otherwise read as black
  ctx.fillRect(0, 0, width, height);
  ctx.imageSmoothingQuality = 'high';
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  ctx.transform(...orientationMatrix(orientation, source.width, source.height));
  ctx.drawImage(source, 0, 0);

  const rgba = ctx.getImageData(0, 0, width, height).data;
  if (scale === 1) smoothOneToOne(rgba, width, height);
  return darkestChannelPgm(rgba, width, height);
}

/**
 * Softens each colour channel with the 3-tap filter [1, 16, 1] / 18 across and down: what Skia's cubic (Mitchell)
 * resampling did to a photo drawn at 1:1 with imageSmoothingQuality 'high' in @napi-rs/canvas 0.1.x, and what the OCR
 * settings were tuned on. Canvas 1.x copies such pixels as they are; without this, OCR recall over the receipts stayed
 * at 0.836 (bench/ocr-lines.ts) but single receipts read other item lines. Scaled photos are still resampled by Skia.
 */
function smoothOneToOne(rgba: Uint8ClampedArray, width: number, height: number): void {
  const across = new Uint16Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      const left = (y * width + Math.max(0, x - 1)) * 4;
      const right = (y * width + Math.min(width - 1, x + 1)) * 4;
      for (let c = 0; c < 3; c++) across[(y * width + x) * 3 + c] = rgba[left + c] + 16 * rgba[at + c] + rgba[right + c];
    }
  }
  for (let y = 0; y < height; y++) {
    const up = Math.max(0, y - 1) * width;
    const down = Math.min(height - 1, y + 1) * width;
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 3; c++) {
        const sum = across[(up + x) * 3 + c] + 16 * across[(y * width + x) * 3 + c] + across[(down + x) * 3 + c];
        rgba[(y * width + x) * 4 + c] = Math.round(sum / 324);
      }
    }
  }
}

/** The canvas transform that draws an image stored with EXIF `orientation` (width x height as stored) upright. */
export function orientationMatrix(
  orientation: number,
  width: number,
  height: number,
): [number, number, number, number, number, number] {
  switch (orientation) {
    case 2: return [-1, 0, 0, 1, width, 0]; // mirrored
    case 3: return [-1, 0, 0, -1, width, height]; // upside down
    case 4: return [1, 0, 0, -1, 0, height]; // mirrored vertically
    case 5: return [0, 1, 1, 0, 0, 0]; // transposed
    case 6: return [0, 1, -1, 0, height, 0]; // needs 90 degrees clockwise
    case 7: return [0, -1, -1, 0, height, width]; // transversed
    case 8: return [0, -1, 1, 0, 0, width]; // needs 90 degrees counter-clockwise
    default: return [1, 0, 0, 1, 0, 0];
  }
}
