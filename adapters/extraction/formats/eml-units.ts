import PostalMime, { type Address, type Attachment } from 'postal-mime';
import { UnprocessableDocumentError } from '../../../core/domain/errors.js';
import type { DocumentAttachment } from '../../../core/ports/document-reader.js';
import { oneLine, type DocumentUnit } from './blocks.js';
import { htmlUnits } from './text-units.js';

/**
 * An e-mail (.eml): postal-mime (maintained, no dependencies, used by Cloudflare's e-mail workers) parses its MIME
 * structure; the headers (from, to, cc, date, subject) head the message's unit as metadata lines, then the body (its
 * plain text, or its HTML read as a web page is), after a line naming its attachments. The attachments (not the
 * images an HTML body shows inline) are handed back with their declared type, each to be a document of its own; a
 * mail attached is one of them (the service bounds how deep it follows those). postal-mime bounds MIME nesting too.
 */
export async function emlUnits(bytes: Uint8Array): Promise<{ message: DocumentUnit; attachments: DocumentAttachment[] }> {
  let email;
  try {
    email = await PostalMime.parse(bytes, { attachmentEncoding: 'arraybuffer', maxNestingDepth: 50, maxRfc822NestingDepth: 3 });
  } catch (error) {
    throw new UnprocessableDocumentError(`The e-mail cannot be read: ${(error as Error).message}`, { cause: error });
  }
  const headers = [
    ['From', addresses(email.from ? [email.from] : [])],
    ['To', addresses(email.to ?? [])],
    ['Cc', addresses(email.cc ?? [])],
    ['Date', email.date ?? ''],
    ['Subject', email.subject ?? ''],
  ].filter(([, value]) => value).map(([name, value]) => `${name}: ${oneLine(value!)}`);
  const body = email.text?.trim() ? email.text : email.html ? htmlUnits(email.html).map((u) => u.text).join('\n\n') : '';
  const attachments = email.attachments.filter((a) => a.filename && !a.related).map((a) => attachmentOf(a));
  const listed = attachments.length > 0 ? [`Attachments: ${attachments.map((a) => a.filename).join(', ')}`] : [];
  if (headers.length === 0 && !body.trim()) throw new UnprocessableDocumentError('The file is not an e-mail message: it has no headers and no body');
  return { message: { label: `Message${email.subject ? `: ${oneLine(email.subject)}` : ''}`, text: [...headers, ...listed, '', body].join('\n') }, attachments };
}

function attachmentOf(attachment: Attachment): DocumentAttachment {
  const content = attachment.content;
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content instanceof Uint8Array ? content : new Uint8Array(content);
  return { filename: attachment.filename ?? 'attachment', contentType: attachment.mimeType, bytes };
}

function addresses(list: Address[]): string {
  return list
    .flatMap((a) => (a.group ? a.group : [a]))
    .map((m) => (m.name ? `${m.name} <${m.address}>` : m.address))
    .join(', ');
}
