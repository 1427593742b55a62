import { expect } from 'chai';
import { zipSync } from 'fflate';
import { ZipParts } from '../../../adapters/extraction/formats/zip-parts.js';
import { resolveDocumentKind, sniffBinaryKind } from '../../../adapters/extraction/content-type.js';
import { renderBlocks, sectionUnits, tableLines, type Block } from '../../../adapters/extraction/formats/blocks.js';
import { tiffDirectoryCount } from '../../../adapters/extraction/formats/image-pages.js';
import { resolvePartPath } from '../../../adapters/extraction/formats/xml-tree.js';
import { readTableGrids } from '../../../core/rag/tables/table-grid.js';
import { splitUnits } from '../../../core/rag/layout.js';

describe('format blocks: tables, sections and types of documents without pages', () => {
  it('writes a table as a header of periods and label + figure rows that the table reader reads back', () => {
    const lines = tableLines([['', '2019', '2018', ''], ['Revenue', '1,200', '1,100', ''], ['Costs', '(300)', '', ''], ['Note', 'see below', 'n/a', '']]);
    expect(lines).to.deep.equal(['2019 2018', 'Revenue 1,200 1,100', 'Costs (300) —', 'Note | see below | n/a']);
    const [grid] = readTableGrids(splitUnits(lines.slice(0, 3).join('\n')));
    expect(grid!.columns.map((c) => c.year)).to.deep.equal([2019, 2018]);
    expect(grid!.rows.map((r) => r.label)).to.deep.equal(['Revenue', 'Costs']);
  });

  it('cuts a document into sections at its top headings, below a lone title, labelled by their headings', () => {
    const blocks: Block[] = [
      { kind: 'paragraph', text: 'Preamble.' },
      { kind: 'heading', level: 1, text: 'Guide' },
      { kind: 'heading', level: 2, text: 'Install' },
      { kind: 'item', marker: '1.', depth: 0, text: 'Unpack' },
      { kind: 'item', marker: '-', depth: 1, text: 'check the sum' },
      { kind: 'heading', level: 2, text: 'Licence' },
      { kind: 'paragraph', text: 'MIT.' },
    ];
    const units = sectionUnits(blocks, 'start');
    expect(units.map((u) => u.label)).to.deep.equal(['start', 'Install', 'Licence']);
    expect(units[0]!.text).to.equal('Preamble.\n\nGuide');
    expect(units[1]!.text).to.equal('Install\n\n1. Unpack\n  - check the sum');
    expect(renderBlocks([{ kind: 'paragraph', text: '  spaced\n out ' }])).to.equal('spaced out');
  });

  it('tells formats by their first bytes, and refuses content that contradicts its declared type', () => {
    expect(sniffBinaryKind(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10]))).to.equal('png');
    expect(sniffBinaryKind(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).to.equal('webp');
    expect(sniffBinaryKind(new TextEncoder().encode('\0\0\0\x18ftypheic'))).to.equal('heic');
    expect(sniffBinaryKind(new TextEncoder().encode('PK\x03\x04'))).to.equal('zip');
    expect(resolveDocumentKind(new TextEncoder().encode('PK\x03\x04...'), 'application/vnd.openxmlformats-officedocument.presentationml.presentation')).to.equal('pptx');
    expect(resolveDocumentKind(new TextEncoder().encode('<html>'), 'Text/HTML; charset=utf-8')).to.equal('html');
    expect(() => resolveDocumentKind(new TextEncoder().encode('hello'), 'image/png')).to.throw('The file content is text or of an unknown format, not a PNG image, although it was declared as image/png');
    expect(() => resolveDocumentKind(new TextEncoder().encode('x'), 'application/zip')).to.throw('Unsupported file type "application/zip"');
  });

  it('inflates a zip part no further than the size it declares (a bomb that lies about its size)', () => {
    const zip = zipSync({ 'word/document.xml': new Uint8Array(10_000_000).fill(0x20) });
    const view = new DataView(zip.buffer);
    view.setUint32(22, 1000, true); // the local header's unpacked size
    for (let i = 0; i < zip.length - 4; i++) if (view.getUint32(i, true) === 0x02014b50) view.setUint32(i + 24, 1000, true); // the directory's
    expect(new ZipParts(zip, { maxUnpackedBytes: 5_000_000 }, 'a Word document').bytesOf('word/document.xml')).to.have.length(1000);
  });

  it('resolves part paths of a package and counts a TIFF’s pages without decoding them', () => {
    expect(resolvePartPath('ppt/slides', '../notesSlides/notesSlide1.xml')).to.equal('ppt/notesSlides/notesSlide1.xml');
    expect(resolvePartPath('xl', '/xl/worksheets/sheet1.xml')).to.equal('xl/worksheets/sheet1.xml');
    // Two directories of no entries, chained: header (8 bytes), directory at 8 → 14, then 14 → end.
    const tiff = new Uint8Array(8 + 6 + 6);
    const view = new DataView(tiff.buffer);
    tiff.set([0x49, 0x49, 42, 0]);
    view.setUint32(4, 8, true);
    view.setUint32(10, 14, true);
    expect(tiffDirectoryCount(tiff)).to.equal(2);
    view.setUint32(16, 8, true); // the second points back at the first
    expect(() => tiffDirectoryCount(tiff)).to.throw(/loops/);
  });
});
