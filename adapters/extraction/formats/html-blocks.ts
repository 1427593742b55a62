import { parseDocument } from 'htmlparser2';
import type { Block } from './blocks.js';
import { isElement, type DomElement, type DomNode } from './xml-tree.js';

/** Elements whose content is never the page's readable text: code, styling, embedded objects, navigation. */
const DROPPED = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'math', 'iframe', 'object', 'embed', 'canvas', 'nav', 'button', 'select', 'form', 'input', 'textarea']);
/** Elements that start and end a block of text. */
const BLOCKS = new Set([
  'p', 'div', 'section', 'article', 'main', 'header', 'footer', 'aside', 'blockquote', 'pre', 'figure', 'figcaption',
  'address', 'dl', 'dt', 'dd', 'hr', 'br', 'caption', 'center', 'details', 'summary', 'body', 'html',
]);

/**
 * The readable content of an HTML page as blocks: headings, paragraphs, list items and tables, with scripts, styles
 * and other non-text elements dropped. htmlparser2 (the parser under cheerio, widely used and maintained) parses it
 * forgivingly, as browsers do; nothing of the page runs, and nothing it links to is fetched.
 */
export function htmlBlocks(html: string): Block[] {
  const document = parseDocument(html, { decodeEntities: true, lowerCaseTags: true });
  const blocks: Block[] = [];
  let inline = '';
  const flush = () => {
    const text = inline.replace(/\s+/g, ' ').trim();
    if (text) blocks.push({ kind: 'paragraph', text });
    inline = '';
  };
  const walk = (node: DomNode, depth: number): void => {
    if (node.type === 'text') {
      inline += (node as { data: string }).data;
      return;
    }
    if (!isElement(node)) return;
    const name = node.name.toLowerCase();
    if (DROPPED.has(name) || node.attribs.hidden !== undefined || node.attribs['aria-hidden'] === 'true') return;
    const heading = /^h([1-6])$/.exec(name);
    if (heading) {
      flush();
      const text = textOf(node);
      if (text) blocks.push({ kind: 'heading', level: Number(heading[1]), text });
      return;
    }
    if (name === 'table') {
      flush();
      const rows = tableRows(node);
      if (rows.length > 0) blocks.push({ kind: 'table', rows });
      return;
    }
    if (name === 'ul' || name === 'ol') {
      flush();
      let index = Number(node.attribs.start ?? 1) || 1;
      for (const child of node.children) {
        if (isElement(child) && child.name.toLowerCase() === 'li') {
          const marker = name === 'ol' ? `${index++}.` : '-';
          listItem(child, marker, depth);
        } else walk(child, depth);
      }
      return;
    }
    if (name === 'img') {
      const alt = node.attribs.alt?.trim();
      if (alt) inline += ` ${alt} `;
      return;
    }
    const isBlock = BLOCKS.has(name) || name === 'li';
    if (isBlock) flush();
    for (const child of node.children) walk(child, depth);
    if (isBlock) flush();
  };
  /** A list item's own text is one item; a list inside it follows as deeper items. */
  const listItem = (li: DomElement, marker: string, depth: number) => {
    flush();
    const own = li.children.filter((c) => !(isElement(c) && (c.name === 'ul' || c.name === 'ol')));
    const text = own.map((c) => textOf(c)).join(' ').replace(/\s+/g, ' ').trim();
    if (text) blocks.push({ kind: 'item', marker, depth, text });
    for (const child of li.children) if (isElement(child) && (child.name === 'ul' || child.name === 'ol')) walk(child, depth + 1);
  };
  for (const child of document.children) walk(child, 0);
  flush();
  return blocks;
}

/** The visible text below a node (dropped elements left out), on one line. */
function textOf(node: DomNode): string {
  const parts: string[] = [];
  const visit = (n: DomNode) => {
    if (n.type === 'text') parts.push((n as { data: string }).data);
    else if (isElement(n) && !DROPPED.has(n.name.toLowerCase())) {
      const block = BLOCKS.has(n.name.toLowerCase()) || n.name === 'li' || n.name === 'td' || n.name === 'th';
      if (block) parts.push(' ');
      for (const c of n.children) visit(c);
      if (block) parts.push(' ');
    }
  };
  visit(node);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** A table's rows of cell texts (a cell spanning columns repeated as empty cells, so the columns stay aligned). */
function tableRows(table: DomElement): string[][] {
  const rows: string[][] = [];
  const visit = (n: DomNode) => {
    if (!isElement(n)) return;
    const name = n.name.toLowerCase();
    if (name === 'tr') {
      const cells: string[] = [];
      for (const c of n.children) {
        if (!isElement(c) || (c.name !== 'td' && c.name !== 'th')) continue;
        cells.push(textOf(c));
        const span = Math.min(Number(c.attribs.colspan ?? 1) || 1, 50);
        for (let i = 1; i < span; i++) cells.push('');
      }
      rows.push(cells);
      return;
    }
    if (name === 'table' && n !== table) return; // a nested table's rows are its own cell's text
    for (const c of n.children) visit(c);
  };
  visit(table);
  return rows;
}
