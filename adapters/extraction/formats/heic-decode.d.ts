// Types for heic-decode (the package ships none): decodes the images of a HEIC/HEIF file with libheif (WebAssembly).
declare module 'heic-decode' {
  interface DecodedImage {
    width: number;
    height: number;
    data: Uint8ClampedArray;
  }
  interface LazyImage {
    width: number;
    height: number;
    decode(): Promise<DecodedImage>;
  }
  function decode(input: { buffer: Uint8Array | ArrayBuffer }): Promise<DecodedImage>;
  namespace decode {
    function all(input: { buffer: Uint8Array | ArrayBuffer }): Promise<LazyImage[] & { dispose(): void }>;
  }
  export default decode;
}
