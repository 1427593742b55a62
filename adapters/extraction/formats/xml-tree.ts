import { DomUtils, parseDocument } from 'htmlparser2';
import { UnprocessableDocumentError } from '../../../core/domain/errors.js';

export type DomDocument = ReturnType<typeof parseDocument>;
export type DomNode = DomDocument['children'][number];
export type DomElement = Parameters<typeof DomUtils.getAttributeValue>[0];
type ChildNode = DomNode;
type Document = DomDocument;
type Element = DomElement;

/**
 * Office parts parsed with htmlparser2 in XML mode: it decodes only XML's five predefined entities and never reads a
 * DTD, so an entity-expansion attack ("billion laughs") has nothing to expand. A part that declares a DTD anyway is
 * refused: Office never writes one, so it is a crafted file.
 */
export function parseXmlPart(xml: string, name: string): Document {
  refuseDtd(xml, name);
  return parseDocument(xml, { xmlMode: true });
}

/** Refuses a part that declares a DTD or entities (see parseXmlPart). */
export function refuseDtd(xml: string, name: string): void {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) {
    throw new UnprocessableDocumentError(`The file is refused: its part ${name} declares XML entities (a DTD), which Office files never do`);
  }
}

/** Elements below `node` (depth first, document order) whose local name (prefix dropped) is `local`. */
export function descendants(node: ChildNode | Document, local: string): Element[] {
  const found: Element[] = [];
  const visit = (n: ChildNode | Document) => {
    for (const child of 'children' in n ? (n.children as ChildNode[]) : []) {
      if (!isElement(child)) continue;
      if (localName(child) === local) found.push(child);
      visit(child);
    }
  };
  visit(node);
  return found;
}

/** An element (a tag, or in HTML a script or style), not text, a comment or a directive. */
export function isElement(node: DomNode): node is DomElement {
  return 'attribs' in node;
}

/** Direct child elements of `node` with this local name. */
export function childrenNamed(node: Element | Document, local: string): Element[] {
  return (node.children as ChildNode[]).filter((c): c is Element => isElement(c) && localName(c) === local);
}

export function localName(element: Element): string {
  const at = element.name.indexOf(':');
  return at < 0 ? element.name : element.name.slice(at + 1);
}

/** An attribute by its local name ("r:id" is found as "id" only when asked as "r:id"; plain names as they are). */
export function attribute(element: Element, name: string): string | undefined {
  return element.attribs[name];
}

/** The text of the text runs (<a:t>, <w:t>, <t>) below `node`, joined. */
export function runText(node: Element, run = 't'): string {
  return descendants(node, run).map((t) => textContent(t)).join('');
}

export function textContent(node: ChildNode): string {
  return DomUtils.textContent(node);
}

/** The targets of a relationships part (Id → path resolved against `base`, the folder of the part they belong to). */
export function relationships(xml: string | undefined, base: string, name: string): Map<string, string> {
  const map = new Map<string, string>();
  if (!xml) return map;
  for (const rel of descendants(parseXmlPart(xml, name), 'Relationship')) {
    const id = rel.attribs.Id;
    const target = rel.attribs.Target;
    if (!id || !target || rel.attribs.TargetMode === 'External') continue;
    map.set(id, resolvePartPath(base, target));
  }
  return map;
}

/** "ppt/slides" + "../notesSlides/notesSlide1.xml" → "ppt/notesSlides/notesSlide1.xml"; "/xl/x.xml" → "xl/x.xml". */
export function resolvePartPath(base: string, target: string): string {
  const parts = target.startsWith('/') ? [] : base.split('/').filter(Boolean);
  for (const piece of target.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece && piece !== '.') parts.push(piece);
  }
  return parts.join('/');
}
