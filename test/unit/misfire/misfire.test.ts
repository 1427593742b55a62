import { expect } from 'chai';
import { createExtractiveAnswerer, answerPlugins, DEFAULT_ANSWER_PLUGINS } from '../../../adapters/answer-plugins/index.js';
import { documentKindClassifier } from '../../../adapters/document-kinds/index.js';
import type { DocumentClassifier } from '../../../core/ports/document-classifier.js';
import { coreFixture } from '../../support/core-fixture.js';
import { FRENCH_LEASE, GERMAN_LEASE, LEASE, MANUAL, PAPER, STATEMENT, TILL_RECEIPT } from './ordinary-documents.js';

/**
 * The misfire suite (issue 49): on ordinary documents no domain plug-in may take part, whatever the question's words.
 * The questions are of the shapes that drew the receipts and financial-statement plug-ins before documents had kinds
 * (the last test shows they still do when the kinds are not known). "Took part" is AskQuestionResult.plugins: a
 * planner that reworded or added a search, or a skill that answered or named the row quoted.
 */
const QUESTIONS = [
  'How much did the tenant pay as a deposit?',
  'How much did Acme pay in cash dividends in 2019?',
  'When was the outbreak of World War I?',
  'How much did I pay?',
  'What did I buy?',
  'What was the total?',
  'How was it paid?',
  'How much VAT was charged?',
  'When did I shop there?',
  'Which was the most expensive purchase?',
  'What was the net income in 2019?',
  'What was the revenue in 2020?',
  'Who is the CEO?',
  'What is the total amount of rent for a year?',
  'What was the dividend rate in 1914?',
  'What is the operating margin in 2023?',
  'What was the capital expenditure in 2023?',
  'How much does the machine weigh?',
  'Wie viel hat der Mieter als Kaution gezahlt?',
  'Combien la locataire a-t-elle versé comme dépôt de garantie ?',
];

const DOCUMENTS: Record<string, string> = {
  'lease.pdf': LEASE, 'paper.pdf': PAPER, 'manual.pdf': MANUAL, 'mietvertrag.pdf': GERMAN_LEASE, 'contrat-de-location.pdf': FRENCH_LEASE,
};

/** The default plug-ins, in the ask flow and the answerer, as the service wires them. */
function fixture(classifier?: DocumentClassifier) {
  const plugins = answerPlugins(DEFAULT_ANSWER_PLUGINS);
  return coreFixture({ llm: createExtractiveAnswerer(), planners: plugins.map((p) => p.planner), classifier });
}


type Fixture = ReturnType<typeof fixture>;

/** Uploads and ingests each document into one session; their job ids by file name. */
async function session(f: Fixture, documents: Record<string, string>) {
  const { id: sessionId } = await f.docChat.createSession.execute({ userId: 'u1', label: 'docs' });
  const ids: Record<string, string> = {};
  for (const [filename, text] of Object.entries(documents)) {
    const upload = await f.docChat.createUploadUrl.execute({ userId: 'u1', filename, contentType: 'application/pdf', contentSize: Buffer.byteLength(text) });
    f.blobs.put(upload.key, text, 'application/pdf');
    ids[filename] = (await f.docChat.startIngestion.execute({ userId: 'u1', sessionId, key: upload.key, filename, tags: {} })).id;
  }
  await f.drain();
  return { sessionId, ids };
}

/** Each question asked in the session (of the documents given, if any): "file: question → plug-ins" for each that drew any. */
async function firing(f: Fixture, sessionId: string, label: string, questions = QUESTIONS, documents?: string[]) {
  const fired: string[] = [];
  for (const message of questions) {
    const { plugins } = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId, message, documents });
    if (plugins.length > 0) fired.push(`${label}: "${message}" → ${plugins.join(', ')}`);
  }
  return fired;
}

describe('misfire suite: no domain plug-in takes part on an ordinary document', () => {
  for (const [filename, text] of Object.entries(DOCUMENTS)) {
    it(`${filename}: none of ${QUESTIONS.length} questions draws a plug-in, alone or asked of it among a receipt and a report`, async () => {
      const f = fixture(documentKindClassifier);
      const alone = await session(f, { [filename]: text });
      expect((await f.jobs.findById(alone.ids[filename]))?.kind).to.not.be.oneOf([undefined, 'receipt', 'financial-report']);
      expect(await firing(f, alone.sessionId, filename)).to.deep.equal([]);
      const mixed = await session(f, { [filename]: text, 'lidl.pdf': TILL_RECEIPT, 'annual-report.pdf': STATEMENT });
      expect(await firing(f, mixed.sessionId, `${filename} of three`, QUESTIONS, [mixed.ids[filename]])).to.deep.equal([]);
    });
  }

  it('among a receipt and a report, the issue’s questions about the ordinary document draw none unasked-for', async () => {
    const f = fixture(documentKindClassifier);
    const { sessionId } = await session(f, { 'lease.pdf': LEASE, 'paper.pdf': PAPER, 'lidl.pdf': TILL_RECEIPT, 'annual-report.pdf': STATEMENT });
    expect(await firing(f, sessionId, 'four documents', ['How much did the tenant pay as a deposit?', 'When was the outbreak of World War I?'])).to.deep.equal([]);
  });

  it('the plug-ins still take part on their own kinds: a receipt’s total, a report’s figure', async () => {
    const f = fixture(documentKindClassifier);
    const receipt = await session(f, { 'lidl.pdf': TILL_RECEIPT });
    expect((await f.jobs.findById(receipt.ids['lidl.pdf']))?.kind).to.equal('receipt');
    expect(await firing(f, receipt.sessionId, 'lidl.pdf', ['How much did I pay?'])).to.deep.equal(['lidl.pdf: "How much did I pay?" → receipts']);
    // Logged too, so that a plug-in answering where it should not is found in the service's log.
    expect(f.logger.lines.filter((l) => l.message === 'answer plug-ins took part').map((l) => l.fields)).to.deep.equal([{ sessionId: receipt.sessionId, plugins: ['receipts'] }]);
    const report = await session(f, { 'annual-report.pdf': STATEMENT });
    expect((await f.jobs.findById(report.ids['annual-report.pdf']))?.kind).to.equal('financial-report');
    expect(await firing(f, report.sessionId, 'annual-report.pdf', ['What was the net income in 2019?'])).to.deep.equal(['annual-report.pdf: "What was the net income in 2019?" → financial-statements']);
  });

  it('asked what I paid among receipts and instructions that speak of paying, still lists each receipt’s total', async () => {
    const f = fixture(documentKindClassifier);
    const instructions = Array.from({ length: 6 }, (_, i) => `Line ${i + 20}. If you pay tax in instalments, enter the amount you paid on line ${i + 20} and attach the schedule. ` +
      'You must pay what you owe by the due date; see the instructions if you cannot pay in full.').join('\n');
    const second = TILL_RECEIPT.replace('FRISCHMARKT', 'BIOLADEN').replace('SUMME 13,25', 'SUMME 21,40').replace('Geg. BAR 20,00', 'Geg. BAR 25,00').replace('Rückgeld 6,75', 'Rückgeld 3,60');
    const { sessionId, ids } = await session(f, { 'frischmarkt.pdf': TILL_RECEIPT, 'bioladen.pdf': second, 'tax-instructions.pdf': instructions });
    expect((await f.jobs.findById(ids['tax-instructions.pdf']))?.kind).to.equal('form');
    const result = await f.docChat.askQuestion.execute({ userId: 'u1', sessionId, message: 'How much did I pay?' });
    expect(result.plugins).to.include('receipts');
    expect(result.answer).to.include('13,25').and.include('21,40');
  });

  it('without kinds (documents read before kinds were, no classifier), the same questions drew the plug-ins: the suite tests something', async () => {
    const f = fixture();
    const fired: string[] = [];
    for (const [filename, text] of Object.entries(DOCUMENTS)) fired.push(...(await firing(f, (await session(f, { [filename]: text })).sessionId, filename)));
    expect(fired.length).to.be.greaterThan(40);
    expect(fired).to.include.members(['lease.pdf: "How much did I pay?" → receipts', 'paper.pdf: "How much did Acme pay in cash dividends in 2019?" → financial-statements']);
    const { sessionId } = await session(f, { 'lease.pdf': LEASE, 'paper.pdf': PAPER, 'lidl.pdf': TILL_RECEIPT, 'annual-report.pdf': STATEMENT });
    expect(await firing(f, sessionId, 'four documents', ['How much did the tenant pay as a deposit?', 'When was the outbreak of World War I?'])).to.deep.equal([
      'four documents: "How much did the tenant pay as a deposit?" → receipts', 'four documents: "When was the outbreak of World War I?" → receipts',
    ]);
  });
});
