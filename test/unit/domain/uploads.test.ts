import { expect } from 'chai';
import { contentTypeFromName, safeFileName, sniffContentType, userKeyPrefix } from '../../../core/domain/uploads.js';

describe('upload keys', () => {
  it('keeps unicode names but removes path separators, traversal and control characters', () => {
    expect(safeFileName('../../etc/passwd')).to.equal('etc-passwd');
    expect(safeFileName('Rapport annuel été 2024.pdf')).to.equal('Rapport-annuel-été-2024.pdf');
    expect(safeFileName('报告\u0000\u202e.pdf')).to.equal('报告.pdf');
    expect(safeFileName('...')).to.equal('file');
    expect(safeFileName('a\\b/c.pdf')).to.equal('a-b-c.pdf');
  });

  it('bounds the name length, keeping the extension', () => {
    const name = safeFileName(`${'x'.repeat(300)}.pdf`);
    expect([...name].length).to.equal(100);
    expect(name.endsWith('.pdf')).to.equal(true);
  });

  it('bounds the name to 200 UTF-8 bytes at whole code points, so the key segment fits the stores', () => {
    const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
    // 3-byte characters: 100 of them would be 300 bytes.
    const cjk = safeFileName(`${'長'.repeat(300)}.pdf`);
    expect(bytes(cjk)).to.be.at.most(200);
    expect(cjk).to.equal(`${'長'.repeat(65)}.pdf`);
    // 4-byte characters (surrogate pairs in JS): never split in half.
    const emoji = safeFileName(`${'📄'.repeat(300)}.pdf`);
    expect(bytes(emoji)).to.be.at.most(200);
    expect(emoji).to.equal(`${'📄'.repeat(49)}.pdf`);
    expect(emoji).to.not.match(/[\uD800-\uDFFF]/u); // no lone surrogate
    const mixed = safeFileName(`${'a長📄é'.repeat(100)}.jpeg`);
    expect(bytes(mixed)).to.be.at.most(200);
    expect(mixed.endsWith('.jpeg')).to.equal(true);
    expect(mixed).to.equal(mixed.normalize('NFC'));
    expect(`a長📄é`.repeat(100).endsWith(mixed.slice(0, -'.jpeg'.length))).to.equal(true);
    // uuid (36) + '-' + name stays within the local store's 250-byte path segment limit.
    for (const name of [cjk, emoji, mixed]) expect(37 + bytes(name)).to.be.at.most(250);
  });

  it('gives each user a storage prefix (ownership itself is recorded, not read from the key)', () => {
    expect(userKeyPrefix('3f1c-user_1')).to.equal('3f1c-user_1');
    expect(userKeyPrefix('weird/../id')).to.match(/^u-[0-9a-f]{32}$/);
  });

  it('tells PDFs and JPEGs by their first bytes and by their names', () => {
    expect(sniffContentType(Buffer.from('%PDF-1.7 ...'))).to.equal('application/pdf');
    expect(sniffContentType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).to.equal('image/jpeg');
    expect(sniffContentType(Buffer.from('hello'))).to.equal(null);
    expect(contentTypeFromName('Scan.JPEG')).to.equal('image/jpeg');
    expect(contentTypeFromName('notes.txt')).to.equal(null);
  });
});
