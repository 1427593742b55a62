import type { DocumentAttachment } from '../../../core/ports/document-reader.js';
import type { StructuredKind } from '../content-type.js';
import type { DocumentUnit } from './blocks.js';
import { docxUnits } from './docx-units.js';
import { emlUnits } from './eml-units.js';
import { pptxUnits } from './pptx-units.js';
import { csvUnits, decodeText, htmlUnits, markdownUnits, plainTextUnits } from './text-units.js';
import { xlsxUnits } from './xlsx-units.js';
import { ZipParts } from './zip-parts.js';

export interface UnitLimits {
  /** Rows a workbook or CSV file may have (MAX_SHEET_ROWS). */
  maxSheetRows: number;
  /** Bytes an Office file's parts may unpack to (MAX_UNPACKED_MB). */
  maxUnpackedBytes: number;
}

/**
 * A document of a format without pages as its units (sections, sheets, slides; a mail's headers and body). A mail's
 * attachments are no units of it: they are handed to `onAttachments`, each to be read as a document of its own (a
 * PDF cited by its own pages, a photo OCR'd), and the mail's unit names them.
 */
export async function documentUnits(
  kind: StructuredKind,
  bytes: Uint8Array,
  limits: UnitLimits,
  onAttachments: (attachments: DocumentAttachment[]) => void = () => {},
): Promise<DocumentUnit[]> {
  switch (kind) {
    case 'text':
      return plainTextUnits(decodeText(bytes, 'text/plain'));
    case 'markdown':
      return markdownUnits(decodeText(bytes, 'text/markdown'));
    case 'html':
      return htmlUnits(decodeText(bytes, 'text/html'));
    case 'csv':
      return csvUnits(decodeText(bytes, 'text/csv'), limits.maxSheetRows);
    case 'xlsx':
      return xlsxUnits(new ZipParts(bytes, limits, 'an Excel workbook'), limits.maxSheetRows);
    case 'docx':
      return docxUnits(new ZipParts(bytes, limits, 'a Word document'));
    case 'pptx':
      return pptxUnits(new ZipParts(bytes, limits, 'a PowerPoint presentation'));
    case 'eml': {
      decodeText(bytes, 'message/rfc822'); // refuses binary content
      const { message, attachments } = await emlUnits(bytes);
      if (attachments.length > 0) onAttachments(attachments);
      return [message];
    }
  }
}
