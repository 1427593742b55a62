import { expect } from 'chai';
import type { IngestJob } from '../../../core/domain/model.js';
import { ingestJobJson } from '../../../server/http/routes/ingest.routes.js';

const job = (overrides: Partial<IngestJob> = {}): IngestJob => ({
  id: 'j1', userId: 'u1', sessionId: 's1', key: 'u1/x.pdf', filename: 'x.pdf', contentType: 'application/pdf', tags: {},
  status: 'completed', progress: 1, pages: 3, chunks: 2, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:01.000Z',
  ...overrides,
});

describe('GET /ingest/:id status record', () => {
  it('shows ocrSkippedPages only when pages were skipped, and attempts only when the job ran more than once', () => {
    const plain = ingestJobJson(job({ attempts: 1, ocrSkippedPages: 0 }));
    expect(plain).to.not.have.any.keys('attempts', 'ocrSkippedPages');
    expect(Object.keys(plain)).to.have.members(['id', 'status', 'progress', 'filename', 'session_id', 'pages', 'chunks', 'tags', 'createdAt', 'updatedAt']);
    expect(ingestJobJson(job({ attempts: 2, ocrSkippedPages: 40 }))).to.include({ attempts: 2, ocrSkippedPages: 40 });
  });

  it('shows the document’s kind once it is told', () => {
    expect(ingestJobJson(job({ kind: 'receipt' }))).to.include({ kind: 'receipt' });
  });

  it('shows the page being read while processing only (a reader says "extracting page 52"), not once the job ended', () => {
    expect(ingestJobJson(job({ status: 'processing', stage: 'extracting', progress: 0.3, readingPage: 52 }))).to.include({ readingPage: 52 });
    expect(ingestJobJson(job({ status: 'completed', readingPage: 52 }))).to.not.have.property('readingPage');
    expect(ingestJobJson(job({ status: 'failed', readingPage: 52 }))).to.not.have.property('readingPage');
  });
});
