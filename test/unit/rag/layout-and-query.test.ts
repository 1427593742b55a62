import { expect } from 'chai';
import { chunkPages, opensContinued } from '../../../core/rag/chunking.js';
import { isColumnHeader, isHeading, isIndexEntry, isTableRow, namedColumns, splitRow, splitUnits } from '../../../core/rag/layout.js';

/** A cash-flow statement as the PDF text layer gives it: one line per visual line. */
const STATEMENT = [
  'Acme Company and Subsidiaries',
  'Consolidated Statement of Cash Flows',
  'Years ended December 31',
  '(Millions) 2018 2017 2016',
  'Cash Flows from Investing Activities',
  'Purchases of property, plant and equipment (PP&E) (1,577) (1,373) (1,420)',
  'Proceeds from sale of PP&E and other assets 262 49 58',
  'Net cash provided by operating activities $ 6,439 $ 6,240 $ 6,662',
].join('\n');
const STATEMENT_TITLE = 'Acme Company and Subsidiaries Consolidated Statement of Cash Flows';
/** A chunk's text without the mark of a continued table on its first line. */
const withoutMark = (text: string) => text.replace(/^\(cont\.\)\n/, '');

describe('layout of extracted lines', () => {
  it('tells table rows, column headers and headings from prose', () => {
    expect(isTableRow('Purchases of property, plant and equipment (PP&E) (1,577) (1,373) (1,420)')).to.equal(true);
    expect(isTableRow('Total assets $ 59,268')).to.equal(true);
    // A label's lone leader dot is no sentence's end (TAT-QA dev prints "Systems ." as reports with leaders do).
    expect(isTableRow('Systems . 1,603,001 1,742,043 2,134,926')).to.equal(true);
    expect(splitRow('Systems . 1,603,001 1,742,043').label).to.equal('Systems');
    expect(splitRow('$ $ $ Realized gains on swaps — (42,271) (25,733)').label).to.equal('Realized gains on swaps');
    // A date ending a label is the label's when figures follow it (a roll-forward's "Balance at December 31, 2018").
    expect(splitRow('Net balances at September 30, 2018 49,786 138,127 145,713').label).to.equal('Net balances at September 30, 2018');
    expect(splitRow('Balance as of 31 December 2019 1,234 5,678').cells).to.deep.equal(['1,234', '5,678']);
    expect(splitRow('As of December 31, 2019').cells).to.deep.equal(['31,', '2019']);
    // A bracket the layout set apart from its figure ("(3,709 )") is the figure's.
    expect(splitRow('Gross profit $ 22,149 $ 25,858 (3,709 ) (14.3%)').cells).to.deep.equal(['22,149', '25,858', '(3,709)', '(14.3%)']);
    expect(isTableRow('Sales rose to 1,603,001 in 2019. 1,742,043')).to.equal(false);
    expect(isTableRow('The company was founded in 1902 and grew.')).to.equal(false);
    expect(isTableRow('sales grew in 2018 compared to 2017')).to.equal(false);
    // A date wrapped after its day (shared/data/pdfs/federal-register-2020-17221.pdf): the sentence runs on.
    expect(isTableRow('on this proposed AD by September 21,')).to.equal(false);
    expect(isTableRow('Total revenue 1,234,')).to.equal(true);
    expect(isColumnHeader('Year Ended December 31, 2017 2018 2019')).to.equal(true);
    expect(isColumnHeader('Total current assets 29,505 28,120')).to.equal(false);
    expect(isColumnHeader('(In millions, except per share data) 2019 2018 2017')).to.equal(true);
    // A wrapped line of prose holding two years (shared/data/pdfs/dmca-summary-1998.pdf).
    expect(isColumnHeader('President Clinton on October 28, 1998. The legislation implements two 1996 World')).to.equal(false);
    // A percent sign the text layer set apart from its number (NETFLIX_2017_10K.pdf, page 22) keeps a row a row.
    expect(isTableRow('Paid memberships at end of period 52,810 47,905 43,401 4,905 10% 4,504 10 %')).to.equal(true);
    expect(splitRow('Paid memberships at end of period 52,810 47,905 43,401 4,905 10% 4,504 10 %')).to.deep.equal({
      label: 'Paid memberships at end of period', cells: ['52,810', '47,905', '43,401', '4,905', '10%', '4,504', '10%'],
    });
    expect(splitRow('Margin % 10 20')).to.deep.equal({ label: 'Margin %', cells: ['10', '20'] });
    // Dot leaders between a price list's cells, a full stop after its last (shared/data/pdfs/federal-register-2020-17221.pdf).
    const cost = 'AFM revisions ...... 1 work-hour × $85 per hour = $85 ...... $0 .......................... $85 ........ $6,205.';
    expect(isTableRow(cost)).to.equal(true);
    expect(splitRow(cost)).to.deep.equal({ label: 'AFM revisions 1 work-hour × $85 per hour =', cells: ['$85', '$0', '$85', '$6,205'] });
    expect(isTableRow('Net sales . . . . . . . . $ 36,397 $ 34,350')).to.equal(true);
    expect(isTableRow('The company paid $5,000.'), 'no leaders: the full stop ends a sentence').to.equal(false);
    expect(isTableRow('Late payment . . . . . 31'), 'an index entry').to.equal(false);
    // "nm" (not meaningful) and "n/a" are a change column's nil: the row keeps its figures; alone they make no row.
    expect(isTableRow('Interest expense (5,940) (598) (5,342) nm')).to.equal(true);
    expect(isTableRow('Net sales $ 93,662 $ 103,350 $ (9,688) (9.4%)'), 'a negative share in brackets').to.equal(true);
    expect(splitRow('Tax at the rate of 19.0% (2017/18: 19.0%) 8.2 (4.0)').cells, 'a bracket the label opened').to.deep.equal(['8.2', '(4.0)']);
    expect(splitRow('Foreign exchange expense and other, net (356) (3,439) 3,083 N/A').cells).to.deep.equal(['(356)', '(3,439)', '3,083', 'N/A']);
    expect(isTableRow('The laser emits light at 532 nm')).to.equal(false);
    expect(isTableRow('Figures for that year are n/a')).to.equal(false);
    expect(isHeading('CONSOLIDATED BALANCE SHEETS')).to.equal(true);
    expect(isHeading('Cash Flows from Investing Activities')).to.equal(true);
    expect(isHeading('of the company and its subsidiaries')).to.equal(false);
    // A paragraph's first line in a narrow column (shared/data/pdfs/federal-register-2020-17221.pdf).
    expect(isHeading('On October 29, 2018, a Boeing Model')).to.equal(false);
    expect(isHeading('Property, Plant, and Equipment')).to.equal(true);
  });

  it('tells an index’s or a table of contents’ entries by their dot leaders leading to page numbers', () => {
    for (const entry of ['6 Late filing . . . . . . . 31 Alternative minimum . . . . 19', 'Estates . . . . . . . . . 3, 4, 8', 'Contents ........ 3', 'Tax rate schedules . . . . . . 9-15']) {
      expect(isIndexEntry(entry), entry).to.equal(true);
    }
    for (const line of ['Installation .... 1 work-hour × $85 per hour = $85 ...... $6,205', 'Revenue grew 5 percent in 2019.', 'Wait... what?', 'Total . . . . . 1,234.56']) {
      expect(isIndexEntry(line), line).to.equal(false);
    }
  });

  it('tells a table of contents without leaders by its run of numbered section titles', () => {
    // OCR of a printed wiki page's contents box (shared/data/pdfs/scanned-epson-wikipedia-ocr.pdf), a LaTeX outline's.
    for (const entry of ['= 4.5 OCR Tools | = 5 Workarounds | » 5.1 Forcing better input | = 5.2 Crowdsourcing s 6 Accuracy = 7 Unicode', '1 Foo 2 2 Bar 2 3 Baz 2 4 Foo 2']) {
      expect(isIndexEntry(entry), entry).to.equal(true);
    }
    for (const line of [
      'The Broncos won 24 Carolina 10 in the final game, and 3 Denver players were named to the team of the season after it.',
      '1. Transitory communications; 2. System caching; 3. Storage of information on systems or networks at direction of users.',
      'Part 2 Methods describes the survey.',
    ]) expect(isIndexEntry(line), line).to.equal(false);
  });

  it('keeps each row as one unit and splits the prose between them into sentences', () => {
    const units = splitUnits(`${STATEMENT}\nThe table shows cash flows. Amounts are in millions.`);
    expect(units.map((u) => u.kind)).to.deep.equal([
      'heading', 'heading', 'sentence', 'columns', 'heading', 'row', 'row', 'row', 'sentence', 'sentence',
    ]);
    expect(units[5].text).to.equal('Purchases of property, plant and equipment (PP&E) (1,577) (1,373) (1,420)');
  });

  it('keeps a wrapped line of prose inside its sentence', () => {
    const units = splitUnits('The board met twice in the year and approved the\nAnnual Report Of The Group\nafter a long debate.');
    expect(units).to.deep.equal([{ kind: 'sentence', text: 'The board met twice in the year and approved the Annual Report Of The Group after a long debate.' }]);
  });
  it('takes no line that opens a quotation or bracket it does not close for a heading: it wraps on', () => {
    // shared/data/pdfs/dmca-summary-1998.pdf, a list's first item over two lines.
    const units = splitUnits('The DMCA is divided into five titles:\n! Title I, the “WIPO Copyright and Performances and Phonograms\nTreaties Implementation Act of 1998,” implements the WIPO treaties.');
    expect(units.map((u) => u.kind)).to.deep.equal(['sentence', 'sentence']);
    expect(units[1].text).to.equal('Title I, the “WIPO Copyright and Performances and Phonograms Treaties Implementation Act of 1998,” implements the WIPO treaties.');
    expect(isHeading('($10,500 if you only have SIMPLE')).to.equal(false);
    // Closed quotations and brackets, German ones too, stay headings.
    expect(isHeading('The “Vessel Hull Design Protection Act”')).to.equal(true);
    expect(isHeading('Satz von Seifert und van Kampen „Light“')).to.equal(true);
    expect(isHeading('Digital Rights (Overview)')).to.equal(true);
    // A bracket OCR read from a smudge opens nothing that goes on (shared/data/images/receipt_aldi_02032020_19_02423.jpg).
    expect(isHeading('GUT BIO JOGHURT PUR (EE')).to.equal(true);
    expect(isHeading('Form 1099-R should have the “Total')).to.equal(false);
  });
});

describe('chunkPages with structure', () => {
  it('puts rows on lines of their own and carries the title and column header to the next page', () => {
    const rows = Array.from({ length: 30 }, (_, i) => `Line item number ${i} ${1000 + i} ${2000 + i} ${3000 + i}`).join('\n');
    const chunks = chunkPages([
      { page: 1, text: `${STATEMENT}\n${rows}`, method: 'text' },
      { page: 2, text: 'Repayment of debt (1,034) (962) (992)\nDividends paid to shareholders (3,193) (2,803) (2,678)', method: 'text' },
    ]);
    expect(chunks[0].text.split('\n')).to.include('Purchases of property, plant and equipment (PP&E) (1,577) (1,373) (1,420)');
    // A later chunk of page 1 and the chunk of page 2 start with the statement's title and years, after a line saying
    // that they continue the table of the chunk before them.
    for (const chunk of [chunks[1], chunks.find((c) => c.page === 2)!]) {
      expect(chunk.text.split('\n').slice(0, 3)).to.deep.equal(['(cont.)', STATEMENT_TITLE, '(Millions) 2018 2017 2016']);
    }
    expect(chunks.find((c) => c.page === 2)!.text).to.include('Dividends paid to shareholders (3,193) (2,803) (2,678)');
  });

  it("takes a page without a table's first run of headings as its title, not every heading on it", () => {
    // A leaflet: headings, a paragraph, sub-headings and an address; the title atop its later chunks is its first headings.
    const paragraph = (topic: string) => Array.from({ length: 12 }, (_, i) => `The ${topic} section says thing ${i} about the device.`).join(' ');
    const chunks = chunkPages([{
      page: 1,
      method: 'ocr',
      text: ['The Sequencer', 'Track Recorder', paragraph('first'), 'Editing', paragraph('editing'), 'Additional Features', paragraph('features'), '18720 Oxnard Street'].join('\n'),
    }]);
    expect(chunks.length).to.be.above(2);
    for (const chunk of chunks.slice(1)) expect(chunk.text.split('\n')[0]).to.equal('The Sequencer Track Recorder');
  });

  it('does not carry a table of contents’ title to the chunks after it, on its page or the next', () => {
    // A LaTeX article's contents page and first section (shared/data/pdfs/pdflatex-outline.pdf), and a printed wiki
    // page whose contents box stands between its lead and its first section (scanned-epson-wikipedia-ocr.pdf).
    const prose = (topic: string) => Array.from({ length: 12 }, (_, i) => `The ${topic} text says thing ${i} about the look of a page.`).join(' ');
    const outline = chunkPages([
      { page: 1, method: 'text', text: 'Contents\n1 Foo 2\n2 Bar 2\n3 Baz 3' },
      { page: 2, method: 'text', text: `1 Foo\n${prose('first')}\n\n2 Bar\n${prose('second')}` },
    ]);
    expect(outline[0].text.split('\n')[0]).to.equal('Contents');
    for (const chunk of outline.slice(1)) expect(chunk.text, `chunk ${chunk.ordinal}`).not.to.include('Contents');
    const wiki = chunkPages([{ page: 1, method: 'ocr', text: `${prose('lead')}\n\nTable of Contents\n1 History\n2 Applications\n\nHistory\n${prose('history')}` }]);
    expect(wiki.filter((chunk) => chunk.text.includes('Table of Contents'))).to.have.length(1);
    expect(wiki.at(-1)!.text).to.include('history text says');
  });

  it('puts a title too long for one heading on lines of its own, not before the first sentence of each chunk', () => {
    // A page of prose in columns (shared/data/pdfs/federal-register-2020-17221.pdf): section headings, then a table.
    const prose = (topic: string) => Array.from({ length: 8 }, (_, i) => `The ${topic} part says thing ${i} about the rule.`).join(' ');
    const rows = Array.from({ length: 30 }, (_, i) => `Action number ${i} $${100 + i} $${200 + i}`).join('\n');
    const headings = ['Proposed Design Changes', 'Costs of Compliance', 'Related Service Information', 'ESTIMATED COSTS'];
    const chunks = chunkPages([{
      page: 1,
      method: 'text',
      text: [headings[0], prose('design'), headings[1], prose('cost'), headings[2], headings[3], rows].join('\n'),
    }]);
    const later = chunks.slice(1);
    expect(later.length).to.be.above(2);
    for (const chunk of later) {
      expect(chunk.text.split('\n').slice(0, 4), chunk.text).to.deep.equal(headings);
      expect(splitUnits(chunk.text).slice(0, 4).map((u) => u.kind), chunk.text).to.deep.equal(['heading', 'heading', 'heading', 'heading']);
    }
    const [short] = chunkPages([{ page: 1, method: 'text', text: ['Costs of Compliance', 'ESTIMATED COSTS', rows].join('\n') }]).slice(1);
    expect(short.text.split('\n')[0], 'a short title stays one line').to.equal('Costs of Compliance ESTIMATED COSTS');
  });

  it('carries a table’s header of names, with no line of years, atop each chunk of the table', () => {
    // shared/data/pdfs/nics-background-checks-2015-11.pdf: a line of column names, then a row per state.
    const header = 'State / Territory Permit Handgun Long Gun Other Multiple Admin Totals';
    const rows = Array.from({ length: 40 }, (_, i) => `State number ${i} ${1000 + i} ${2000 + i} ${300 + i} ${40 + i} ${i} ${i + 1} ${9000 + i}`);
    const chunks = chunkPages([{ page: 1, method: 'text', text: [header, ...rows].join('\n') }]);
    expect(chunks.length).to.be.above(2);
    for (const chunk of chunks) expect(withoutMark(chunk.text).split('\n')[0], chunk.text).to.equal(header);
    // A line with a figure, or with fewer words than the row has figures, is no such header.
    for (const line of ['Checks in November 2015', 'State Permit']) expect(namedColumns([{ kind: 'heading', text: line }], rows[0]), line).to.equal(undefined);
    expect(namedColumns([{ kind: 'heading', text: header }], rows[0])).to.equal(header);
  });

  it('carries a header run on after the sentence that introduces the table atop each chunk of the table', () => {
    const intro = 'The following table shows the harbour office’s figures for the season as a whole: € thousand 2021 2020 Change (%)';
    const rows = Array.from({ length: 40 }, (_, i) => `Berth number ${i} ${100 + i}.5 ${90 + i}.0 ${i}.1`);
    const chunks = chunkPages([{ page: 1, method: 'text', text: [intro, ...rows].join('\n') }]);
    expect(chunks.length).to.be.above(2);
    for (const chunk of chunks.slice(1)) expect(chunk.text.split('\n').slice(0, 2), chunk.text).to.deep.equal(['(cont.)', '€ thousand 2021 2020 Change (%)']);
  });

  it('carries the unit printed under a table’s header atop each chunk of the table, with the header', () => {
    // As a report prints it (TAT-QA dev): the header read by columns, then "(In millions)" under it.
    const rows = Array.from({ length: 40 }, (_, i) => `Harbour fee number ${i} $${100 + i} $${90 + i} $${80 + i}`);
    const chunks = chunkPages([{ page: 1, method: 'text', text: ['2021 | 2020 | 2019', '(In millions)', ...rows].join('\n') }]);
    expect(chunks.length).to.be.above(2);
    for (const chunk of chunks) expect(withoutMark(chunk.text).split('\n').slice(0, 2), chunk.text).to.deep.equal(['2021 | 2020 | 2019', '(In millions)']);
    // A later table's header starts without the unit of the one before.
    const next = chunkPages([{ page: 1, method: 'text', text: ['2021 | 2020 | 2019', '(In millions)', ...rows, 'Q4 | Q3', ...rows.slice(0, 30)].join('\n') }]).at(-1)!;
    expect(withoutMark(next.text).split('\n')[0]).to.equal('Q4 | Q3');
    expect(next.text).not.to.include('(In millions)');
  });

  it('carries the period line the rows below it stand under ("December 31, 2020") atop the next chunk of the table', () => {
    const rows = (year: number) => Array.from({ length: 24 }, (_, i) => `Harbour fee number ${i} $${100 + i} $(${i}) $${90 + i}`);
    const text = ['Gross | Allowance | Net', 'December 31, 2021', ...rows(2021), 'December 31, 2020', ...rows(2020), 'Total $2,000 $(80) $1,920'].join('\n');
    const chunks = chunkPages([{ page: 1, method: 'text', text }]);
    const last = chunks.at(-1)!.text.split('\n');
    expect(last.slice(0, 3)).to.deep.equal(['(cont.)', 'Gross | Allowance | Net', 'December 31, 2020']);
    expect(chunks.find((c) => c.text.includes('December 31, 2021') && c.text.includes('Harbour fee number 0 '))).to.not.equal(undefined);
  });

  it('marks a chunk that opens inside the table the chunk before it ended in, on its page or the next, and no other', () => {
    const rows = (name: string, n: number) => Array.from({ length: n }, (_, i) => `${name} number ${i} ${100 + i} ${90 + i}`);
    const prose = Array.from({ length: 10 }, (_, i) => `The harbour master notes point ${i} about the season.`).join(' ');
    const chunks = chunkPages([
      { page: 1, method: 'text', text: ['Harbour Fees', '2021 2020', ...rows('Berth', 30), '', prose, '', 'Q4 Q3', ...rows('Crane', 12)].join('\n') },
      { page: 2, method: 'text', text: rows('Crane', 12).slice(2).join('\n') },
      { page: 3, method: 'text', text: ['Crane Hire', 'Q4 Q3', ...rows('Crane', 4)].join('\n') },
    ]);
    const marked = chunks.filter((c) => opensContinued(c.text));
    // The later parts of the berths' table are marked (the last one runs on into the prose), and the cranes' rows on
    // page 2; not the first part of either table, nor page 3, whose title starts a section of its own.
    const berths = marked.filter((c) => /Berth number/.test(c.text));
    expect(berths.length).to.be.above(0);
    for (const chunk of berths) expect(chunk.text.split('\n').slice(0, 3), chunk.text).to.deep.equal(['(cont.)', 'Harbour Fees', '2021 2020']);
    expect(chunks.filter((c) => /Berth number/.test(c.text))).to.have.length(berths.length + 1);
    expect(marked.filter((c) => /Crane/.test(c.text)).map((c) => c.page)).to.deep.equal([2]);
    expect(marked.every((c) => c.page <= 2)).to.equal(true);
  });

  it('marks the chunk after one that ends on a section’s label ("Services:") inside a table, not after a line leading into one', () => {
    const rows = (name: string, n: number) => Array.from({ length: n }, (_, i) => `${name} number ${i} ${100 + i} ${90 + i}`);
    // The paragraph ends on the label, as a page's text block can: the rows after it open the next chunk.
    const chunksEndingOn = (label: string) => chunkPages([{ page: 1, method: 'text', text: ['Harbour Fees', '2021 2020', ...rows('Berth', 12), label, '', ...rows('Crane', 12)].join('\n') }]);
    const [first, second] = chunksEndingOn('Cranes:');
    expect(first.text.split('\n').at(-1)).to.equal('Cranes:');
    expect(opensContinued(second.text), second.text).to.equal(true);
    const [, after] = chunksEndingOn('The cranes are as follows:');
    expect(opensContinued(after.text), after.text).to.equal(false);
  });

  it('takes at most the first six headings above a table as the title: a sidebar of headings does not open every chunk', () => {
    // shared/data/pdfs/irs-i1040nr-2007.pdf, page 2: a column of 15 headings beside the page's prose, then a table.
    const sidebar = ['Items to Note', 'Additional Information', 'Pub. 525 Taxable and Nontaxable', 'Income', 'Pub. 529 Miscellaneous Deductions',
      'Pub. 552 Recordkeeping for Individuals', 'Pub. 901 U.S. Tax Treaties', 'Pub. 910 Guide to Free Tax Services', 'Green Card Test'];
    const prose = Array.from({ length: 40 }, (_, i) => `A nonresident alien files form ${i} when rule ${i} applies.`).join(' ');
    const rows = Array.from({ length: 4 }, (_, i) => `Line number ${i} ${100 + i} ${200 + i}`).join('\n');
    const chunks = chunkPages([{ page: 2, method: 'text', text: [...sidebar, prose, rows].join('\n') }]);
    expect(chunks.length).to.be.above(2);
    for (const chunk of chunks.slice(1)) {
      expect(chunk.text.split('\n').slice(0, 6), chunk.text).to.deep.equal(sidebar.slice(0, 6));
      expect(chunk.text, chunk.text).to.not.include(sidebar[6]);
    }
  });

  it("does not take a receipt's item lines in capitals for its title", () => {
    // The OCR of shared/data/images/receipt_aldi_02032020_19_02423.jpg: items above the first line that reads as a row.
    const items = ['ECHTER UBERSEERUM 40%VvOL. 9,69 <0', 'BIO HONIG 329 GC', 'GUTFRIED GEFL./HAHN. FL. . 1,99 C', 'FERRERO KINDER RIEGEL 1,99 C',
      'HARIBO GOLDBAREN 1196', 'FAIR TRADE BID TEE FS 1.32906', 'KIWI, VORGEREIFT, KL 1 154956'];
    const more = Array.from({ length: 30 }, (_, i) => `GUT BIO JOGHURT PUR ${i},35 C`);
    const chunks = chunkPages([{ page: 1, method: 'ocr', text: ['Pohlweg 110', '33100 Paderborn', '', ...items, ...more, 'ZU ZAHLEN EURO 24,23'].join('\n') }]);
    expect(chunks.length).to.be.above(1);
    for (const chunk of chunks.slice(1)) expect(chunk.text, chunk.text).to.not.include('FERRERO');
    // Titles that end on a number still carry: a year, a note's number, a short section number.
    for (const title of ['Annual Report 2019', 'Note 12', 'Section 4.2']) {
      const rows = Array.from({ length: 40 }, (_, i) => `Line number ${i} ${100 + i} ${200 + i}`).join('\n');
      const [, second] = chunkPages([{ page: 1, method: 'text', text: `${title}\n${rows}` }]);
      expect(second.text.split('\n')[0], title).to.equal(title);
    }
  });

  it('gives the text above a title the previous section, not the title below it', () => {
    // A document's prose, then a table whose header lines read as headings (shared/data/pdfs/google-doc-document.pdf).
    const prose = Array.from({ length: 30 }, (_, i) => `Rule number ${i} says that simple is better than complex.`).join(' ');
    const chunks = chunkPages([
      { page: 1, method: 'text', text: `Style Guide\n${prose}` },
      { page: 2, method: 'text', text: `${prose}\nIndonesia Germany Austria\nCapital Jakarta Berlin Vienna\nPopulation 273,879,750 83,190,556 8,935,112` },
    ]);
    const page2 = chunks.filter((c) => c.page === 2);
    expect(page2.length).to.be.above(1);
    for (const chunk of page2.slice(0, -1)) expect(chunk.text.split('\n')[0], chunk.text).to.equal('Style Guide');
    expect(page2.at(-1)!.text).to.include('Indonesia Germany Austria\nCapital Jakarta Berlin Vienna\nPopulation 273,879,750');
  });

  it('does not repeat a title the chunk already starts with', () => {
    const [first] = chunkPages([{ page: 1, text: STATEMENT, method: 'text' }]);
    expect(first.text.match(/Consolidated Statement of Cash Flows/g)).to.have.length(1);
  });
});
