import fs from 'node:fs';

/**
 * PDFium reading a document from its file, block by block as it parses (FPDF_LoadCustomDocument), instead of from a
 * copy of the whole file in its WebAssembly memory. That memory never shrinks, so the copy stayed for the life of the
 * process: 36 MB in each extraction process for issue 18's long PDF, and as much as the upload limit allows for a
 * larger one. Reading the long PDF this way costs ~23,500 reads of 41 MB in all (from the page cache), and the same
 * time.
 *
 * PDFium calls back through a function pointer, an index in the module's function table. @hyzyla/pdfium builds that
 * table with a fixed maximum and no free slot (and without Emscripten's addFunction), so withGrowableTable() drops the
 * maximum from the wasm file's table section before it is compiled, and one slot is added for the callback.
 */

/** WebAssembly's JavaScript API, as far as it is used here (the project's TypeScript libraries do not declare it). */
interface FunctionTable {
  grow(delta: number): number;
  set(index: number, value: unknown): void;
}
const { Instance, Module } = (globalThis as unknown as {
  WebAssembly: { Module: new (bytes: Uint8Array) => object; Instance: new (module: object, imports: object) => { exports: Record<string, unknown> } };
}).WebAssembly;

/** The parts of the module this needs; pointers are numbers. */
export interface PdfiumFileModule {
  HEAPU8: Uint8Array;
  wasmExports: { malloc(size: number): number; free(ptr: number): void; __indirect_function_table: FunctionTable };
  _FPDF_LoadCustomDocument(access: number, password: number): number;
}

/** A file PDFium reads from: `access` is its FPDF_FILEACCESS, valid until close(). */
export interface PdfiumFile {
  readonly access: number;
  close(): void;
}

const TABLE_SECTION = 4;
const HAS_MAXIMUM = 0x01;

/** The wasm binary with its one function table's maximum removed (its minimum, the slots in use, unchanged). */
export function withGrowableTable(wasm: Uint8Array): Uint8Array {
  let at = 8; // magic and version
  const readU32 = (): number => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = wasm[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
  };
  while (at < wasm.length) {
    const sectionStart = at;
    const id = wasm[at++];
    const size = readU32();
    const contentStart = at;
    if (id === TABLE_SECTION) {
      if (readU32() !== 1) throw new Error('PDFium: expected one function table in its wasm file');
      const refType = wasm[at++];
      const flags = readU32();
      const minimum = readU32();
      if ((flags & ~HAS_MAXIMUM) !== 0) throw new Error(`PDFium: unexpected table limits (flags ${flags})`);
      const content = [...u32(1), refType, 0x00, ...u32(minimum)];
      return Buffer.concat([wasm.subarray(0, sectionStart), Uint8Array.from([TABLE_SECTION, ...u32(content.length), ...content]), wasm.subarray(contentStart + size)]);
    }
    at = contentStart + size;
  }
  throw new Error('PDFium: no function table in its wasm file');
}

function u32(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

/**
 * A wasm module that imports a JavaScript function of type (i32, i32, i32, i32) → i32 and exports it: the exported
 * function is a wasm function, which a table accepts (a plain JavaScript function it does not). Emscripten's
 * addFunction builds the same kind of module; this one is written out because the package does not export it.
 */
const TRAMPOLINE = Uint8Array.from([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  0x01, 0x09, 0x01, 0x60, 0x04, 0x7f, 0x7f, 0x7f, 0x7f, 0x01, 0x7f, // type section: (i32 i32 i32 i32) → i32
  0x02, 0x07, 0x01, 0x01, 0x65, 0x01, 0x66, 0x00, 0x00, // import section: "e" "f", a function of type 0
  0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00, // export section: "f", function 0
]);

/** FPDF_FILEACCESS on wasm32: m_FileLen, m_GetBlock, m_Param; four bytes each. */
const FILE_ACCESS_BYTES = 12;

/**
 * Opens files for PDFium to read from. One callback slot serves every file of the module: m_Param names the file.
 * The callback must never throw (an exception through PDFium's frames would leave it in an unknown state): a failed
 * read answers 0, which PDFium reports as a damaged document.
 */
export function pdfiumFiles(m: PdfiumFileModule): (file: string) => PdfiumFile {
  const open = new Map<number, { fd: number; size: number }>();
  let nextParam = 1;
  const getBlock = (param: number, position: number, buffer: number, length: number): number => {
    try {
      const file = open.get(param);
      position >>>= 0;
      length >>>= 0;
      if (!file || position + length > file.size) return 0;
      for (let done = 0; done < length; ) {
        const read = fs.readSync(file.fd, m.HEAPU8, buffer + done, length - done, position + done);
        if (read <= 0) return 0;
        done += read;
      }
      return 1;
    } catch {
      return 0;
    }
  };
  const table = m.wasmExports.__indirect_function_table;
  const trampoline = new Instance(new Module(TRAMPOLINE), { e: { f: getBlock } });
  const slot = table.grow(1);
  table.set(slot, trampoline.exports.f);

  return (path) => {
    const fd = fs.openSync(path, 'r');
    let access = 0;
    try {
      const size = fs.fstatSync(fd).size;
      if (size > 0xffffffff) throw new Error(`PDFium reads files of up to 4 GB; ${path} has ${size} bytes`);
      access = m.wasmExports.malloc(FILE_ACCESS_BYTES);
      if (!access) throw new Error('PDFium could not allocate a file access record');
      const param = nextParam++;
      new Uint32Array(m.HEAPU8.buffer, access, 3).set([size, slot, param]);
      open.set(param, { fd, size });
      let closed = false;
      return {
        access,
        close: () => {
          if (closed) return;
          closed = true;
          open.delete(param);
          m.wasmExports.free(access);
          fs.closeSync(fd);
        },
      };
    } catch (error) {
      if (access) m.wasmExports.free(access);
      fs.closeSync(fd);
      throw error;
    }
  };
}
