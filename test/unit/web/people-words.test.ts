import { expect } from 'chai';
import { shortName } from '../../../web/src/names.js';
import { progressText, timeLeft } from '../../../web/src/progress-text.js';
import type { IngestJob } from '../../../web/src/types.js';
import { checkFile, forPeople, MAX_FILE_BYTES, sizeError } from '../../../web/src/upload-rules.js';

const created = '2026-01-01T10:00:00.000Z';
const at = (seconds: number) => Date.parse(created) + seconds * 1000;
const job = (patch: Partial<IngestJob>): IngestJob => ({
  id: 'j', status: 'processing', filename: 'a.pdf', session_id: 's', tags: {}, createdAt: created, updatedAt: created, ...patch,
});

describe('web app: progress in words', () => {
  it('says the stage and the page being read, and the time left once there is a pace to go by', () => {
    expect(progressText(job({ status: 'queued' }), at(1))).to.equal('waiting its turn');
    expect(progressText(job({ stage: 'extracting', readingPage: 52, progress: 0.05 }), at(1))).to.equal('extracting page 52');
    expect(progressText(job({ stage: 'extracting', readingPage: 52, progress: 0.25 }), at(10))).to.equal('extracting page 52, about 30 s left');
    expect(progressText(job({ stage: 'extracting', readingPage: 52, pages: 194, progress: 0.25 }), at(10))).to.equal('extracting page 52 of 194, about 30 s left');
    expect(progressText(job({ stage: 'recognizing', readingPage: 3, pages: 10, progress: 0.05 }), at(1))).to.equal('reading scanned page 3 of 10 (OCR)');
    expect(progressText(job({ stage: 'indexing', progress: 0.92 }), at(46))).to.equal('indexing, almost done');
    expect(progressText(job({ stage: 'embedding', progress: 0.5 }), at(200))).to.equal('indexing, about 3 min left');
  });

  it('gives no time left before 10 % or 3 s, nor for a finished job', () => {
    expect(timeLeft(job({ progress: 0.05 }), at(30))).to.equal(undefined);
    expect(timeLeft(job({ progress: 0.5 }), at(2))).to.equal(undefined);
    expect(timeLeft(job({ progress: 1 }), at(20))).to.equal(undefined);
  });
});

describe('web app: refusals in words for people', () => {
  const file = (name: string, size: number, type = '') => ({ name, size, type }) as File;

  it('says how large a file is against the limit, and which kinds can be added', () => {
    expect(sizeError(60 * 1_048_576)).to.equal('This file is 60 MB; the limit is 50 MB');
    expect(checkFile(file('big.pdf', MAX_FILE_BYTES + 1, 'application/pdf'))).to.deep.equal({ error: 'This file is 50 MB; the limit is 50 MB' });
    expect(checkFile(file('notes.txt', 10, 'text/plain'))).to.deep.equal({ error: 'Only PDF and JPEG files can be added (this one is a .txt file)' });
    expect(checkFile(file('scan.JPG', 10))).to.deep.equal({ contentType: 'image/jpeg' });
  });

  it('puts the API contract texts into the same words when the API had the last say', () => {
    expect(forPeople('Maximum file size limit exceed', file('big.pdf', 62_914_560))).to.equal('This file is 60 MB; the limit is 50 MB');
    expect(forPeople('Invalid File Type | Valid Type Are: application/pdf, image/jpeg, image/jpg', file('a.png', 1))).to.equal('Only PDF and JPEG files can be added');
    expect(forPeople('Upload failed (500)', file('a.pdf', 1))).to.equal('Upload failed (500)');
  });

  it('names a session after its first file or question, briefly', () => {
    expect(shortName('Coca-Cola_10-K_2019.pdf')).to.equal('Coca-Cola 10-K 2019');
    const long = shortName('What was the consolidated net income of the company in the fiscal year 2019 compared with 2018?');
    expect(long.length).to.be.at.most(60);
    expect(long).to.equal('What was the consolidated net income of the company in the…');
  });
});
