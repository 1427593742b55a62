import mammoth from 'mammoth';
import { zipSync } from 'fflate';
import { UnprocessableDocumentError } from '../../../core/domain/errors.js';
import { sectionUnits, type DocumentUnit } from './blocks.js';
import { htmlBlocks } from './html-blocks.js';
import { refuseDtd } from './xml-tree.js';
import type { ZipParts } from './zip-parts.js';

/** The parts mammoth reads: the text, its styles and numbering (lists), footnotes, and the relationships between them. */
const WORD_PARTS = /^(?:\[Content_Types\]\.xml|_rels\/\.rels|word\/(?:_rels\/)?[^/]+\.(?:xml|rels))$/;

/**
 * A Word document (.docx, .docm): mammoth (the maintained, widely used DOCX-to-HTML converter) turns headings,
 * paragraphs, lists and tables into HTML, which the HTML reader makes into blocks; a unit per top-level heading
 * ("7. Termination"). mammoth unpacks with JSZip, which trusts the sizes a zip declares: so it is handed a package
 * rebuilt from the parts ZipParts unpacked within its limits (stored, not compressed), with only the XML parts it
 * reads — no images (not text), no macros (vbaProject.bin: never run, never read).
 */
export async function docxUnits(zip: ZipParts): Promise<DocumentUnit[]> {
  if (!zip.has('word/document.xml')) throw new UnprocessableDocumentError('The file is not a Word document (it has no word/document.xml): it may be mislabelled');
  const parts: Record<string, Uint8Array> = {};
  for (const name of zip.names().filter((n) => WORD_PARTS.test(n))) {
    const bytes = zip.bytesOf(name)!;
    // A DTD is refused in every part before mammoth's XML parser sees it.
    refuseDtd(new TextDecoder().decode(bytes), name);
    parts[name] = bytes;
  }
  const buffer = Buffer.from(zipSync(parts, { level: 0 }));
  let html: string;
  try {
    const result = await mammoth.convertToHtml({ buffer }, { convertImage: mammoth.images.imgElement(async () => ({ src: '' })) });
    html = result.value;
  } catch (error) {
    throw new UnprocessableDocumentError(`The Word document cannot be read: ${(error as Error).message}`, { cause: error });
  }
  return sectionUnits(htmlBlocks(html), '');
}
