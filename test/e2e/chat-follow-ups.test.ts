import { expect } from 'chai';
import { tatqaPart } from '../../bench/tatqa-data.js';
import { tatqaPagePdf } from '../../bench/tatqa-page.js';
import type { ApiClient } from '../support/api-client.js';
import { describeWithCorpus } from '../support/corpus.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * Follow-ups through the HTTP API on the embedded defaults, on a real report table: a TAT-QA context of the dev part
 * (../shared/data/tatqa, a company's "$ million" table of 2019 and 2018) printed as a report page (bench/tatqa-page.ts).
 */
describeWithCorpus('HTTP API follow-ups on a real report table', function () {
  this.timeout(60_000);
  let t: TestService;
  let api: ApiClient;

  before(async () => {
    t = await startTestService();
    api = await t.as('fay');
  });
  after(async () => {
    await t?.close();
  });

  it('answers "And the year before?" with the same row in the previous period, and "And in 2019?" with that period', async () => {
    const context = tatqaPart('dev').find((c) => c.table.uid === '13bb283b-4b9c-42b9-9b02-f1b2e1a87abf');
    expect(context, 'the dev part holds the report page').to.not.equal(undefined);
    const row = context!.table.table.find((cells) => cells[0] === 'Revenue');
    expect(row?.slice(1, 3), 'the table as the test reads it').to.deep.equal(['503.6', '476.9']);
    const sessionId = await api.createSession('report');
    const job = await api.waitForJob((await api.uploadAndIngest(sessionId, 'annual-report.pdf', await tatqaPagePdf(context!), 'application/pdf')).jobId);
    expect(job.status).to.equal('completed');

    const ask = async (message: string) => {
      const res = await api.ask(sessionId, message);
      expect(res.status).to.equal(200);
      return { lead: (res.body.data as string).split('\n')[0], sources: res.body.sources as Array<{ filename: string; page: number }> };
    };
    expect((await ask('What was the revenue in 2019?')).lead).to.equal('Revenue, 2019: $503.6 million');
    const before = await ask('And the year before?');
    expect(before.lead).to.equal('Revenue, 2018: $476.9 million');
    expect(before.sources[0]).to.include({ filename: 'annual-report.pdf', page: 1 });
    expect((await ask('And in 2019?')).lead).to.equal('Revenue, 2019: $503.6 million');
  });
});
