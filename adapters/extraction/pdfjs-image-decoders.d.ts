// Types for the part of pdfjs-dist's stand-alone image decoders we use (the package ships none for this entry).
declare module 'pdfjs-dist/legacy/image_decoders/pdf.image_decoders.mjs' {
  export class JpegError extends Error {}

  export class JpegImage {
    constructor(options?: { decodeTransform?: number[] | null; colorTransform?: number });
    width: number;
    height: number;
    numComponents: number;
    parse(data: Uint8Array): void;
    getData(options: {
      width: number;
      height: number;
      forceRGBA?: boolean;
      forceRGB?: boolean;
      isSourcePDF?: boolean;
    }): Uint8ClampedArray;
  }

  export const VerbosityLevel: { readonly ERRORS: number; readonly WARNINGS: number; readonly INFOS: number };
  export function setVerbosityLevel(level: number): void;
}
