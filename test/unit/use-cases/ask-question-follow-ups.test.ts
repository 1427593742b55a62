import { expect } from 'chai';
import { coreFixture } from '../../support/core-fixture.js';

/** Two reports of made-up companies, as a reader lays out their income statements (no domain rule involved). */
const report = (company: string, figures: { income: [number, number, number]; other: [number, number, number] }) => `${company} ANNUAL REPORT
${company} reports its results for the year.
CONSOLIDATED STATEMENTS OF INCOME
(In millions) 2020 2019 2018
Net Operating Revenues $ 33,014 $ 37,266 $ 34,300
Other income (loss) — net ${figures.other.map(String).join(' ')}
Consolidated Net Income ${figures.income.map((n) => n.toLocaleString('en-US')).join(' ')}`;

const NORTHWIND = report('NORTHWIND', { income: [7768, 8985, 6476], other: [841, 34, 1674] });
const CONTOSO = report('CONTOSO', { income: [57411, 94680, 99803], other: [258, 401, 777] });

describe('AskQuestion follow-ups', () => {
  async function session(documents: Array<[string, string]>) {
    const f = coreFixture();
    const [[firstName, firstText], ...others] = documents;
    const { session } = await f.sessionWithUpload('u1', firstText, firstName);
    for (const [name, text] of others) {
      const upload = await f.docChat.createUploadUrl.execute({ userId: 'u1', filename: name, contentType: 'application/pdf', contentSize: Buffer.byteLength(text) });
      f.blobs.put(upload.key, text, 'application/pdf');
      await f.docChat.startIngestion.execute({ userId: 'u1', sessionId: session.id, key: upload.key, filename: name, tags: {} });
    }
    await f.drain();
    const ask = (message: string) => f.docChat.askQuestion.execute({ userId: 'u1', sessionId: session.id, message });
    return { f, ask };
  }
  const firstLine = (answer: string) => answer.split('\n')[0];

  it('"And the year before?" reads the same row, the previous period', async () => {
    const { ask } = await session([['northwind.pdf', NORTHWIND]]);
    expect(firstLine((await ask('What was the net income in 2019?')).answer)).to.equal('Consolidated Net Income, 2019: $8,985 million');
    expect(firstLine((await ask('And the year before?')).answer)).to.equal('Consolidated Net Income, 2018: $6,476 million');
    // Counted on from the period just resolved, not from the first question's.
    expect(firstLine((await ask('And the year after?')).answer)).to.equal('Consolidated Net Income, 2019: $8,985 million');
  });

  it('"And the year before?" after a question naming no year counts from the period the answer read (the latest)', async () => {
    const { ask } = await session([['northwind.pdf', NORTHWIND]]);
    expect(firstLine((await ask('How much was the consolidated net income?')).answer)).to.equal('Consolidated Net Income, 2020: $7,768 million');
    expect(firstLine((await ask('What about the previous year?')).answer)).to.equal('Consolidated Net Income, 2019: $8,985 million');
  });

  it('"And in 2018?" reads the same row in that period', async () => {
    const { ask } = await session([['northwind.pdf', NORTHWIND]]);
    await ask('What was the net income in 2019?');
    expect(firstLine((await ask('And in 2018?')).answer)).to.equal('Consolidated Net Income, 2018: $6,476 million');
  });

  it('"What about Contoso?" asks the same question of the other document of the session', async () => {
    const { ask } = await session([['northwind-annual-report.pdf', NORTHWIND], ['contoso-annual-report.pdf', CONTOSO]]);
    const first = await ask('What was the net income of Northwind in 2019?');
    expect(firstLine(first.answer)).to.equal('Consolidated Net Income, 2019: $8,985 million');
    expect(first.sources.filter((s) => s.cited).map((s) => s.filename)).to.deep.equal(['northwind-annual-report.pdf']);
    const other = await ask('What about Contoso?');
    expect(firstLine(other.answer)).to.equal('Consolidated Net Income, 2019: $94,680 million');
    expect(other.sources.filter((s) => s.cited).map((s) => s.filename)).to.deep.equal(['contoso-annual-report.pdf']);
    // And back on the document just answered from: the period before, of Contoso's row.
    const before = await ask('And the year before?');
    expect(firstLine(before.answer)).to.equal('Consolidated Net Income, 2018: $99,803 million');
    expect(before.sources.filter((s) => s.cited).map((s) => s.filename)).to.deep.equal(['contoso-annual-report.pdf']);
  });

  it('"What about Contoso?" finds the document by the name its text gives, when its file name does not', async () => {
    const { ask } = await session([['report-a.pdf', NORTHWIND], ['report-b.pdf', CONTOSO]]);
    const first = await ask('What was the net income in 2019?');
    const firstFile = first.sources.find((s) => s.cited)?.filename;
    const [otherName, otherFile, otherFigure] = firstFile === 'report-a.pdf' ? ['Contoso', 'report-b.pdf', '$94,680'] : ['Northwind', 'report-a.pdf', '$8,985'];
    const other = await ask(`What about ${otherName}?`);
    expect(firstLine(other.answer)).to.equal(`Consolidated Net Income, 2019: ${otherFigure} million`);
    expect(other.sources.filter((s) => s.cited).map((s) => s.filename)).to.deep.equal([otherFile]);
  });

  it('"What about Contoso?" goes to the document whose file name or title names Contoso, though the other mentions it too', async () => {
    // Northwind's report speaks of Contoso more often than Contoso's own does: the words alone point to Northwind's.
    const rival = (text: string, name: string, times: number) =>
      text.replace('reports its results for the year.', `reports its results. ${`${name}, a competitor, grew faster and ${name} prices fell. `.repeat(times)}`);
    for (const [northwind, contoso] of [['northwind.pdf', 'contoso.pdf'], ['report-a.pdf', 'report-b.pdf']]) {
      const { ask } = await session([[northwind, rival(NORTHWIND, 'Contoso', 3)], [contoso, rival(CONTOSO, 'Northwind', 1)]]);
      await ask('What was the net income of Northwind in 2019?');
      const other = await ask('What about Contoso?');
      expect(firstLine(other.answer), `${northwind}, ${contoso}`).to.equal('Consolidated Net Income, 2019: $94,680 million');
      // The direct answer's source; the other report's sentence naming Contoso may follow under "Also found".
      expect(other.sources.find((s) => s.cited)?.filename, `${northwind}, ${contoso}`).to.equal(contoso);
      const before = await ask('And the year before?');
      expect(firstLine(before.answer)).to.equal('Consolidated Net Income, 2018: $99,803 million');
      expect(before.sources.find((s) => s.cited)?.filename).to.equal(contoso);
    }
  });

  it('a run of follow-ups still sees the question that named their subject (the history read reaches back far enough)', async () => {
    const { ask } = await session([['northwind-annual-report.pdf', NORTHWIND], ['contoso-annual-report.pdf', CONTOSO]]);
    await ask('What was the net income of Northwind in 2019?');
    for (const follow of ['What about Contoso?', 'And the year before?', 'What about Northwind?', 'And in 2019?']) await ask(follow);
    const last = await ask('And the year after?');
    expect(firstLine(last.answer)).to.equal('Consolidated Net Income, 2020: $7,768 million');
    expect(last.sources.filter((s) => s.cited).map((s) => s.filename)).to.deep.equal(['northwind-annual-report.pdf']);
  });

  it('a question that stands on its own after a follow-up is asked as it is', async () => {
    const { ask } = await session([['northwind.pdf', NORTHWIND]]);
    await ask('What was the net income in 2019?');
    await ask('And the year before?');
    expect(firstLine((await ask('What were the net operating revenues in 2020?')).answer)).to.equal('Net Operating Revenues, 2020: $33,014 million');
  });
});
