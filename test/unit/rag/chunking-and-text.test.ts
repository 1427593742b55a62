import { expect } from 'chai';
import { chunkPages, DEFAULT_CHUNKING, pageChunker, tableTexts } from '../../../core/rag/chunking.js';
import { reciprocalRankFusion } from '../../../core/rag/fusion.js';
import { excerptFor, packContexts, toSources } from '../../../core/rag/context.js';
import { countWords, splitSentences, truncateWords } from '../../../core/rag/text.js';
import type { ChunkHit } from '../../../core/ports/vector-index.js';

describe('splitSentences', () => {
  it('splits on sentence ends but not after abbreviations or initials', () => {
    expect(splitSentences('Dr. Smith arrived. He met J. R. Tolkien in the U.S. Army! Was it 1942? Yes.')).to.deep.equal([
      'Dr. Smith arrived.',
      'He met J. R. Tolkien in the U.S. Army!',
      'Was it 1942?',
      'Yes.',
    ]);
  });

  it('keeps decimals and closing quotes together and collapses whitespace', () => {
    expect(splitSentences('It cost 3.50 euros.\n"Fine," he said. "Next one."  Done')).to.deep.equal([
      'It cost 3.50 euros.',
      '"Fine," he said.',
      '"Next one."',
      'Done',
    ]);
  });

  it("drops a list's bullet between two sentences, as printed or as OCR reads it", () => {
    // The OCR text of a photographed leaflet (shared/data/images/linn_sequencer.jpg): its bullets read as ® e ¢ *.
    const leaflet = 'It includes: ® Operation is similar to a tape recorder. ® Each sequence contains 32 tracks. ' +
      'Plays up to 16 synthesizers! e Ultra-fast disk drive holds over 110,000 notes per disk! ¢ Exclusive ERASE function. • Done.';
    expect(splitSentences(leaflet)).to.deep.equal([
      'It includes: ® Operation is similar to a tape recorder.',
      'Each sequence contains 32 tracks.',
      'Plays up to 16 synthesizers!',
      'Ultra-fast disk drive holds over 110,000 notes per disk!',
      'Exclusive ERASE function.',
      'Done.',
    ]);
    // A lower-case word after an abbreviation is no bullet, and "etc. e" is no boundary.
    expect(splitSentences('Costs rose, etc. e Prices fell. Sales grew.')).to.deep.equal(['Costs rose, etc. e Prices fell.', 'Sales grew.']);
  });

  it('keeps a numbered list after a colon in its sentence, and ends a sentence on a number otherwise', () => {
    // shared/data/pdfs/dmca-summary-1998.pdf, page 8.
    const lead = 'The limitations are based on the following four categories of conduct by a service provider:';
    const list = '1. Transitory communications; 2. System caching; 3. Storage of information on systems or networks at direction of users; and 4. Information location tools.';
    expect(splitSentences(`${lead}\n${list} New section 512 also includes special rules.`)).to.deep.equal([`${lead} ${list}`, 'New section 512 also includes special rules.']);
    expect(splitSentences('He scored 12. Then he left at the age of 14. He moved.')).to.deep.equal(['He scored 12.', 'Then he left at the age of 14.', 'He moved.']);
    expect(splitSentences('Steps. 1. Open the lid. 2. Pour.')).to.deep.equal(['Steps.', '1. Open the lid.', '2. Pour.']);
  });

  it('returns nothing for blank text', () => {
    expect(splitSentences('  \n ')).to.deep.equal([]);
  });
});

describe('chunkPages', () => {
  const sentence = (n: number) => `Sentence number ${n} talks about topic ${n} in some detail here.`; // 10 words

  it('keeps chunks within a page, numbers them in order, and overlaps one sentence', () => {
    const page1 = Array.from({ length: 30 }, (_, i) => sentence(i)).join(' ');
    const chunks = chunkPages(
      [{ page: 1, text: page1, method: 'text' }, { page: 2, text: 'Short second page.', method: 'text' }],
      { targetWords: 100, overlapSentences: 1 },
    );
    expect(chunks.map((c) => c.ordinal)).to.deep.equal(chunks.map((_, i) => i));
    const onPage1 = chunks.filter((c) => c.page === 1);
    expect(onPage1.length).to.be.within(3, 4);
    for (const c of onPage1) expect(countWords(c.text)).to.be.at.most(110);
    // The last sentence of a chunk opens the next.
    const lastOfFirst = splitSentences(onPage1[0].text).at(-1)!;
    expect(onPage1[1].text.startsWith(lastOfFirst)).to.equal(true);
    // Every sentence survives chunking.
    for (let i = 0; i < 30; i++) expect(onPage1.some((c) => c.text.includes(sentence(i))), `sentence ${i}`).to.equal(true);
    expect(chunks.at(-1)).to.deep.include({ page: 2, text: 'Short second page.' });
  });

  it('splits an endless "sentence" (a table, OCR noise) into bounded pieces', () => {
    const words = Array.from({ length: 1000 }, (_, i) => `w${i}`).join(' ');
    const chunks = chunkPages([{ page: 1, text: words, method: 'ocr' }], { targetWords: 120, overlapSentences: 1 });
    for (const c of chunks) expect(countWords(c.text)).to.be.at.most(240);
    expect(chunks.map((c) => c.text).join(' ')).to.include('w999');
  });

  it('keeps a paragraph that ends on a colon with the paragraph it leads into', () => {
    const lead = 'Title II of the DMCA adds a new section 512 to the Copyright Act to create four new limitations on liability for copyright infringement by online service providers. The limitations are based on the following four categories of conduct by a service provider:';
    const list = '1. Transitory communications; 2. System caching; 3. Storage of information on systems or networks at direction of users; and 4. Information location tools.';
    const after = 'Each limitation entails a complete bar on monetary damages, and restricts the availability of injunctive relief in various respects.';
    const chunks = chunkPages([{ page: 8, text: [lead, list, after].join('\n\n'), method: 'text' }], { targetWords: 150, overlapSentences: 1 });
    expect(chunks.map((c) => c.text)).to.deep.equal([`${lead} ${list}`, after]);
    // Without the colon, a paragraph of a quarter of the target closes its chunk (a shorter one joins what follows).
    const ended = lead.replace(/:$/, '.');
    const plain = chunkPages([{ page: 8, text: [ended, list, after].join('\n\n'), method: 'text' }], { targetWords: 150, overlapSentences: 1 });
    expect(plain.map((c) => c.text)).to.deep.equal([ended, `${list} ${after}`]);
    // A lead-in whose list would not fit with it in one chunk, or followed by prose (a letter's salutation, read by OCR
    // as "To the Senate and House of Representatives :"), closes as any paragraph does.
    const long = `1. ${Array.from({ length: 12 }, (_, i) => `Sentence ${i} of a long list item on another topic goes on.`).join(' ')}`;
    expect(chunkPages([{ page: 8, text: [lead, long].join('\n\n'), method: 'text' }], { targetWords: 150, overlapSentences: 1 })[0].text).to.equal(lead);
    const prose = chunkPages([{ page: 8, text: [lead, after, after].join('\n\n'), method: 'text' }], { targetWords: 150, overlapSentences: 1 });
    expect(prose[0].text).to.equal(lead);
  });

  it('skips empty pages', () => {
    expect(chunkPages([{ page: 1, text: '   ', method: 'ocr' }])).to.deep.equal([]);
  });
});

const hit = (id: string, score: number, text = `text ${id}`): ChunkHit => ({
  chunk: { id, sessionId: 's', jobId: 'j', filename: `${id}.pdf`, page: 1, ordinal: 0, text, tags: {} },
  score,
});

describe('reciprocalRankFusion', () => {
  it('passes a single list through in order', () => {
    expect(reciprocalRankFusion([[hit('a', 9), hit('b', 5)], []], 10).map((h) => h.chunk.id)).to.deep.equal(['a', 'b']);
  });

  it('ranks items found by both lists above items found by one', () => {
    const fused = reciprocalRankFusion([[hit('a', 9), hit('b', 5), hit('c', 1)], [hit('c', 0.9), hit('d', 0.8), hit('b', 0.1)]], 10);
    expect(fused.slice(0, 2).map((h) => h.chunk.id).sort()).to.deep.equal(['b', 'c']);
    expect(fused).to.have.length(4);
    expect(reciprocalRankFusion([[hit('a', 1), hit('b', 1)], [hit('c', 1)]], 2)).to.have.length(2);
  });
});

describe('packContexts and toSources', () => {
  it('numbers passages in rank order, drops duplicate texts and respects the budget', () => {
    const packed = packContexts([hit('a', 3, 'same'), hit('b', 2, 'same'), hit('c', 1, 'x'.repeat(50)), hit('d', 0.5, 'y'.repeat(60))], 5, 100);
    expect(packed.passages.map((p) => [p.ref, p.filename])).to.deep.equal([['1', 'a.pdf'], ['2', 'c.pdf']]);
  });

  it('takes the mark of a continued table off its passage, and names the passage it continues when the chunk before it is there', () => {
    const part = (id: string, ordinal: number, text: string, page = 1): ChunkHit => ({ chunk: { ...hit(id, 1).chunk, filename: 'r.pdf', ordinal, page, text }, score: 1 });
    const packed = packContexts([
      part('b', 4, '(cont.)\nFees 2021 2020\nBerth 3 13 12'),
      part('a', 3, 'Fees 2021 2020\nBerth 1 11 10\nBerth 2 12 11'),
      part('c', 9, '(cont.)\nFees 2021 2020\nCrane 3 13 12'),
      part('d', 5, 'Fees 2021 2020\nBerth 4 14 13', 2),
    ], 5, 10_000);
    expect(packed.passages.map((p) => [p.text.split('\n')[0], p.continues])).to.deep.equal([['Fees 2021 2020', '2'], ['Fees 2021 2020', undefined], ['Fees 2021 2020', undefined], ['Fees 2021 2020', undefined]]);
    expect(tableTexts(packed.passages).map(({ passage, text }) => [passage.ref, text])).to.deep.equal([
      ['2', 'Fees 2021 2020\nBerth 1 11 10\nBerth 2 12 11\nBerth 3 13 12'],
      ['3', 'Fees 2021 2020\nCrane 3 13 12'],
      ['4', 'Fees 2021 2020\nBerth 4 14 13'],
    ]);
  });

  it('lists cited sources first in the answer’s numbering, then the others in retrieval order, adding quoted passages beyond the limit', () => {
    const packed = packContexts([hit('a', 3), hit('b', 2, 'z '.repeat(400)), hit('c', 1)], 5, 10_000);
    expect(toSources(packed, { usedRefs: ['3'] }, 1).map((s) => [s.filename, s.cited])).to.deep.equal([['c.pdf', true], ['a.pdf', false]]);
    const sources = toSources(packed, { usedRefs: ['2'] }, 2);
    expect(sources.map((s) => [s.filename, s.cited])).to.deep.equal([['b.pdf', true], ['a.pdf', false]]);
    // The number the text cites a passage by comes with it, on cited sources only, and orders them.
    expect(toSources(packed, { usedRefs: ['1', '3'], markers: { 1: 2, 2: 5, 3: 1 } }, 3).map((s) => [s.filename, s.marker])).to.deep.equal([['c.pdf', 1], ['a.pdf', 2], ['b.pdf', undefined]]);
    expect(sources[0].excerpt.length).to.be.at.most(404);
    expect(sources[1].ingestId).to.equal('j');
  });

  it('shows the part of a long chunk that matches the question', () => {
    const filler = Array.from({ length: 12 }, (_, i) => `Filler sentence number ${i} talks about nothing much at all.`);
    const text = [...filler.slice(0, 6), 'The treaty discriminated against parallel importers like Mr Dassonville.', ...filler.slice(6)].join(' ');
    const excerpt = excerptFor(text, 'Whom did the rule discriminate against?', 200);
    expect(excerpt).to.include('discriminated against parallel importers');
    expect(excerpt.length).to.be.at.most(204);
    expect(excerpt.startsWith('… ')).to.equal(true);
    expect(excerptFor('Short chunk.', 'anything', 200)).to.equal('Short chunk.');
  });

  it('shows the part of a long cited chunk that the answer quotes, not the part matching the question', () => {
    const filler = Array.from({ length: 12 }, (_, i) => `Filler sentence number ${i} talks about nothing much at all.`);
    const text = ['Liquidity and Capital Resources overview.', ...filler.slice(0, 6), 'We periodically review our capital structure in light of market conditions.', ...filler.slice(6)].join(' ');
    const packed = packContexts([hit('a', 2, text), hit('b', 1, text.replace('Liquidity', 'Solvency'))], 5, 10_000);
    const quote = 'We periodically review our capital structure in light of market conditions.';
    const [cited, found] = toSources(packed, { usedRefs: ['1'], quotes: { 1: quote, 2: quote } }, 2, 'Liquidity and Capital Resources');
    expect(cited.excerpt).to.include(quote).and.not.include('Capital Resources');
    // A passage the answer does not quote shows what matches the question, whatever quote is given for it.
    expect(found.excerpt).to.include('Capital Resources').and.not.include(quote);
    // What the answer quotes comes with the source it quotes (a client marks those words), not with the others.
    expect(cited.quote).to.equal(quote);
    expect(found).to.not.have.property('quote');
    expect(toSources(packed, { usedRefs: ['1'] }, 2)[0]).to.not.have.property('quote');
  });

  it('truncates at a word boundary', () => {
    expect(truncateWords('alpha beta gamma delta', 12)).to.equal('alpha beta…');
  });
});

describe('pageChunker', () => {
  it('chunks page by page exactly as chunkPages does, ordinals and carried sections included', () => {
    const pages = [
      { page: 1, method: 'text' as const, text: 'Consolidated Statement of Cash Flows\n\n2019 2018\nPurchases of property 1,200 1,100\nDepreciation 300 280' },
      { page: 2, method: 'text' as const, text: 'Proceeds from sales 50 40\nNet cash used 900 800' },
      { page: 3, method: 'text' as const, text: 'Notes\n\n' + 'The company leases offices in several cities under long-term agreements. '.repeat(30) },
    ];
    const chunker = pageChunker(DEFAULT_CHUNKING);
    const byPage = pages.flatMap((page) => chunker(page));
    expect(byPage).to.deep.equal(chunkPages(pages, DEFAULT_CHUNKING));
    expect(byPage.map((c) => c.ordinal)).to.deep.equal(byPage.map((_, i) => i));
  });
});
