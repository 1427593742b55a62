import { UnprocessableDocumentError } from '../../../core/domain/errors.js';
import { oneLine, renderBlocks, type Block, type DocumentUnit } from './blocks.js';
import { childrenNamed, descendants, isElement, localName, parseXmlPart, relationships, textContent, type DomElement } from './xml-tree.js';
import type { ZipParts } from './zip-parts.js';

/**
 * A PowerPoint deck (.pptx, .pptm): a unit per slide in the deck's order ("Slide 4"), holding its title, its text
 * (bullets by level), its tables and its speaker notes. No maintained npm library reads slides with their notes and
 * tables (the candidates read text only, or are unmaintained), so the parts are read here with fflate and htmlparser2
 * (see ZipParts and parseXmlPart for the limits that apply). Macros (vbaProject.bin) are never read.
 */
export function pptxUnits(zip: ZipParts): DocumentUnit[] {
  const presentationXml = zip.textOf('ppt/presentation.xml');
  if (presentationXml === undefined) throw new UnprocessableDocumentError('The file is not a PowerPoint presentation (it has no ppt/presentation.xml): it may be mislabelled');
  const presentation = parseXmlPart(presentationXml, 'ppt/presentation.xml');
  const rels = relationships(zip.textOf('ppt/_rels/presentation.xml.rels'), 'ppt', 'ppt/_rels/presentation.xml.rels');
  const slides = descendants(presentation, 'sldId').flatMap((id) => rels.get(id.attribs['r:id'] ?? '') ?? []);
  return slides.map((part, i) => slideUnit(zip, part, i + 1));
}

function slideUnit(zip: ZipParts, part: string, number: number): DocumentUnit {
  const xml = zip.textOf(part);
  const folder = part.slice(0, part.lastIndexOf('/'));
  const file = part.slice(part.lastIndexOf('/') + 1);
  const { title, blocks } = xml ? shapesOf(parseXmlPart(xml, part)) : { title: '', blocks: [] };
  const slideRels = relationships(zip.textOf(`${folder}/_rels/${file}.rels`), folder, `${folder}/_rels/${file}.rels`);
  const notesPart = [...slideRels.values()].find((target) => /notesSlides\/[^/]+\.xml$/.test(target));
  const notesXml = notesPart ? zip.textOf(notesPart) : undefined;
  const notes = notesXml ? shapesOf(parseXmlPart(notesXml, notesPart!), 'body').blocks : [];
  const heading = `Slide ${number}${title ? `: ${title}` : ''}`;
  const all: Block[] = [{ kind: 'heading', level: 1, text: heading }, ...blocks];
  if (notes.length > 0) all.push({ kind: 'paragraph', text: 'Notes:' }, ...notes);
  return { label: `Slide ${number}`, text: renderBlocks(all) };
}

/**
 * The title and the other text of a slide's shapes, in the order they stand in the shape tree (groups opened).
 * `only`: just the placeholders of that type (the notes page's "body", not its slide image or page number).
 */
function shapesOf(root: ReturnType<typeof parseXmlPart>, only?: string): { title: string; blocks: Block[] } {
  let title = '';
  const blocks: Block[] = [];
  const tree = descendants(root, 'spTree')[0];
  if (!tree) return { title, blocks };
  const visit = (node: DomElement) => {
    for (const child of node.children) {
      if (!isElement(child)) continue;
      const name = localName(child);
      if (name === 'grpSp') visit(child);
      else if (name === 'sp') {
        // A placeholder without a type is a body (content) placeholder (ECMA-376 19.3.1.36).
        const ph = descendants(child, 'ph')[0];
        const placeholder = ph ? (ph.attribs.type ?? 'body') : undefined;
        if (only !== undefined && placeholder !== only) continue;
        const paragraphs = descendants(child, 'p');
        if (placeholder === 'title' || placeholder === 'ctrTitle') {
          title = oneLine(paragraphs.map((p) => paragraphText(p)).join(' '));
          continue;
        }
        for (const p of paragraphs) {
          const text = paragraphText(p);
          if (!text) continue;
          const level = Number(childrenNamed(p, 'pPr')[0]?.attribs.lvl ?? 0);
          // Body placeholders are bullets; free text boxes are paragraphs.
          if (only === undefined && (placeholder === 'body' || (placeholder === undefined && descendants(child, 'buChar').length > 0))) {
            blocks.push({ kind: 'item', marker: '-', depth: level, text });
          }
          else blocks.push({ kind: 'paragraph', text });
        }
      } else if (name === 'graphicFrame') {
        for (const table of descendants(child, 'tbl')) {
          const rows = descendants(table, 'tr').map((tr) => childrenNamed(tr, 'tc').map((tc) => oneLine(descendants(tc, 'p').map((p) => paragraphText(p)).join(' '))));
          if (rows.length > 0) blocks.push({ kind: 'table', rows });
        }
      }
    }
  };
  visit(tree);
  // A slide made without a title placeholder (by a script, or a blank layout): its first short line stands as title.
  const first = blocks[0];
  if (!title && only === undefined && first?.kind === 'paragraph' && first.text.length <= 80) {
    title = first.text;
    blocks.shift();
  }
  return { title, blocks };
}

/** A paragraph's runs (<a:t>) and line breaks, as one line. */
function paragraphText(p: DomElement): string {
  return oneLine(descendants(p, 't').map((t) => textContent(t)).join(''));
}
