import { UnprocessableDocumentError } from '../../../core/domain/errors.js';
import { kindOfType, resolveDocumentKind, type StructuredKind } from '../content-type.js';
import type { DocumentUnit } from './blocks.js';
import { docxUnits } from './docx-units.js';
import { emlUnits, type MailAttachment } from './eml-units.js';
import { pptxUnits } from './pptx-units.js';
import { csvUnits, decodeText, htmlUnits, markdownUnits, plainTextUnits } from './text-units.js';
import { xlsxUnits } from './xlsx-units.js';
import { ZipParts } from './zip-parts.js';

export interface UnitLimits {
  /** Rows a workbook or CSV file may have (MAX_SHEET_ROWS). */
  maxSheetRows: number;
  /** Bytes an Office file's parts may unpack to (MAX_UNPACKED_MB). */
  maxUnpackedBytes: number;
  /** The text of a PDF attached to an e-mail, page by page (the extractor's PDF reader). */
  pdfPageTexts(bytes: Uint8Array): Promise<string[]>;
}

/** Extensions of attachments whose type the mail did not say (application/octet-stream). */
const TYPE_OF_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf', txt: 'text/plain', md: 'text/markdown', html: 'text/html', htm: 'text/html', csv: 'text/csv', eml: 'message/rfc822',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** A document of a format without pages as its units (sections, sheets, slides; a mail and its attachments). */
export async function documentUnits(kind: StructuredKind, bytes: Uint8Array, limits: UnitLimits, depth = 0): Promise<DocumentUnit[]> {
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
      const units = [message];
      // Attachments of a mail attached to a mail are read; deeper ones only listed (postal-mime bounds nesting too).
      for (const attachment of depth < 2 ? attachments : []) units.push(...(await attachmentUnits(attachment, limits, depth)));
      return units;
    }
  }
}

/**
 * An attachment read as the document it is, its units labelled with its name ("contract.pdf, page 2"). One that
 * cannot be read (a photo, a damaged file) is named in the message's list of attachments and otherwise left out:
 * the mail itself still ingests.
 */
async function attachmentUnits(attachment: MailAttachment, limits: UnitLimits, depth: number): Promise<DocumentUnit[]> {
  const extension = /\.([A-Za-z0-9]+)$/.exec(attachment.filename)?.[1]?.toLowerCase() ?? '';
  const declared = kindOfType(attachment.contentType) ? attachment.contentType : TYPE_OF_EXTENSION[extension];
  if (!declared) return [];
  const name = attachment.filename;
  try {
    const kind = resolveDocumentKind(attachment.bytes, declared);
    if (kind === 'pdf') {
      const pages = await limits.pdfPageTexts(attachment.bytes);
      return pages.map((text, i) => ({ label: `${name}, page ${i + 1}`, text: `Attachment ${name}, page ${i + 1}\n\n${text}` }));
    }
    if (kind === 'jpeg' || kind === 'png' || kind === 'webp' || kind === 'tiff' || kind === 'heic') return [];
    const units = await documentUnits(kind, attachment.bytes, limits, depth + 1);
    return units.map((unit) => ({ label: `${name}${unit.label ? `, ${unit.label}` : ''}`, text: `Attachment ${name}\n\n${unit.text}` }));
  } catch (error) {
    if (error instanceof UnprocessableDocumentError) return [];
    throw error;
  }
}
