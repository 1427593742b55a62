import { expect } from 'chai';
import { filingOverview } from '../../../adapters/financial-statements/filing-overview.js';
import { createExtractiveAnswerer } from '../../../adapters/answer-plugins/index.js';
import type { ContextPassage } from '../../../core/ports/llm.js';

const passage = (text: string, ref: string, filename = 'filing.pdf'): ContextPassage => ({ ref, filename, page: 1, text, score: 1 });
const TITLE = 'UNITED STATES SECURITIES AND EXCHANGE COMMISSION FORM 10-K';

// Covers as the corpus's filings (shared/data/financebench/pdfs) are chunked: the name before "(Exact name …)" on its
// line, on the line above, or at the end of the passage before; the period's words across a line break.
describe('a filing in an overview', () => {
  it('tells an annual report by its form, its registrant and its fiscal year', () => {
    const cover = `${TITLE}\nUNITED STATES\nFORM 10-K\n(Mark One) þ ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(D) OF THE SECURITIES EXCHANGE ACT OF 1934\n` +
      'FOR THE FISCAL YEAR ENDED May 31, 2018\nCommission File No. 1-10635\nNIKE, Inc . (Exact name of Registrant as specified in its charter) OREGON 93-0584541';
    expect(filingOverview([passage(cover, 'a')])).to.deep.equal({ text: 'An annual report on Form 10-K of NIKE, Inc. for the fiscal year ended May 31, 2018.', usedRefs: ['a'] });
    const ruled = `${TITLE}\nFORM 10-K\nANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) FOR\nTHE FISCAL YEAR ENDED May 31, 2020\n` +
      'Commission File Number: 001-01185\n________________ GENERAL MILLS, INC.\n(Exact name of registrant as specified in its charter)';
    expect(filingOverview([passage(ruled, 'a')])?.text).to.equal('An annual report on Form 10-K of GENERAL MILLS, INC. for the fiscal year ended May 31, 2020.');
  });

  it('finds a current report’s registrant at the end of the passage before, past the lines a passage carries over', () => {
    const title = 'UNITED STATES SECURITIES AND EXCHANGE COMMISSION FORM 8-K CURRENT REPORT';
    const dated = 'Date of report (Date of earliest event reported): May 20, 2022 (May 18, 2022)';
    const told = filingOverview([
      passage(`${title}\nFORM 8-K\nCURRENT REPORT\n${dated}\nFoot Locker, Inc.`, 'a'),
      passage(`${title}\n${dated}\n(Exact name of registrant as specified in charter) New York 1-10299 13-3513936`, 'b'),
    ]);
    expect(told).to.deep.equal({ text: 'A current report on Form 8-K of Foot Locker, Inc., dated May 20, 2022.', usedRefs: ['a', 'b'] });
  });

  it('takes the name in capitals after the file number, says what it can read without one, and nothing of what is no filing', () => {
    const cover = `${TITLE}\nFORM 10-K\n☒ ANNUAL REPORT\nFor the Fiscal Year Ended June 30, 2016\nOR ☐ TRANSITION REPORT Commission File Number 001-37845 MICROSOFT CORPORATION WASHINGTON 91-1144442`;
    expect(filingOverview([passage(cover, 'a')])?.text).to.equal('An annual report on Form 10-K of MICROSOFT CORPORATION for the fiscal year ended June 30, 2016.');
    const unnamed = `${TITLE}\nFORM 10-K\n☒ ANNUAL REPORT\nFor the Fiscal Year Ended June 30, 2016\nCommission File Number 001-37845 WASHINGTON 91-1144442`;
    expect(filingOverview([passage(unnamed, 'a')])?.text).to.equal('An annual report on Form 10-K for the fiscal year ended June 30, 2016.');
    const release = 'Acme reports fiscal 2023 results. Revenue grew 4% in the fourth quarter, and margins widened in every region of the world. ' +
      'See our annual report on FORM 10-K for the fiscal year ended June 30, 2023, filed with the Securities and Exchange Commission.';
    expect(filingOverview([passage(release, 'a')])).to.equal(undefined);
    expect(filingOverview([passage(`${TITLE}\nFORM 10-K\nIndicate by check mark whether the registrant is a shell company.`, 'a')])).to.equal(undefined);
  });

  it('is what the embedded answerer says of a filing among other documents in an overview', async () => {
    const cover = `${TITLE}\nFORM 10-K\nFor the fiscal year ended December 31, 2018\nCommission file number 1-442\nTHE BOEING COMPANY\n(Exact name of registrant as specified in its charter)`;
    const answer = await createExtractiveAnswerer().answer({ question: 'What documents do I have?', overview: true, history: [], contexts: [
      passage(cover, 'a', 'boeing.pdf'),
      passage('The museum opens its new wing in May. The wing shows aircraft built in the city over a hundred years.', 'b', 'museum.pdf'),
    ] });
    expect(answer.text.split('\n\n')[0]).to.equal('boeing.pdf: An annual report on Form 10-K of THE BOEING COMPANY for the fiscal year ended December 31, 2018.');
  });
});
