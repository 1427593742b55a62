import { expect } from 'chai';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { ExtractedPage } from '../../../core/domain/model.js';
import type { DocumentReader, ReadDocumentRequest } from '../../../core/ports/document-reader.js';
import { coreFixture } from '../../support/core-fixture.js';

// A full collection on demand, to see whether anything still reaches an object (the flag applies to new contexts).
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

async function collectGarbage(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
}

/**
 * Reads "PDF" text (one page per form feed) like the child-process reader does with a long document: it takes the
 * bytes at once (there: into a temporary file) and keeps only a weak reference to them, hands every page over with
 * onPages, then waits until the test lets it answer.
 */
class HandOverReader implements DocumentReader {
  bytes?: WeakRef<Uint8Array>;
  /** Resolves once every page is handed over and the reader waits. */
  readonly waiting: Promise<void>;
  private nowWaiting!: () => void;
  private release!: () => void;

  constructor() {
    this.waiting = new Promise((resolve) => (this.nowWaiting = resolve));
  }

  // Not async: this frame, and with it the request, is gone once the promise is returned.
  read(request: ReadDocumentRequest): Promise<ExtractedPage[]> {
    this.bytes = new WeakRef(request.bytes);
    const text = Buffer.from(request.bytes).toString('utf8');
    return this.answer(text, request.onPages);
  }

  finish(): void {
    this.release();
  }

  private async answer(text: string, onPages: ReadDocumentRequest['onPages']): Promise<ExtractedPage[]> {
    const pages = text.split('\f').map((page, i): ExtractedPage => ({ page: i + 1, text: page, method: 'text' }));
    onPages?.(pages);
    await new Promise<void>((resolve) => {
      this.release = resolve;
      this.nowWaiting();
    });
    return pages.map((page) => ({ ...page, text: '' })); // handed over: the contract lets a reader leave them out
  }
}

describe('RunIngestion memory', () => {
  it('does not hold the document’s bytes while the reader reads it', async () => {
    const reader = new HandOverReader();
    const f = coreFixture({ reader });
    const pages = Array.from({ length: 40 }, (_, i) => `Page ${i + 1} of the annual report. Revenue grew in quarter ${i % 4 + 1}.`);
    const { job } = await f.sessionWithUpload('u1', pages.join('\f'));
    const running = f.drain();
    await reader.waiting;
    await collectGarbage();
    const held = reader.bytes!.deref() !== undefined;
    reader.finish();
    await running;
    expect(held, 'the bytes handed to the reader are still reachable while it reads').to.equal(false);
    // And the pages it handed over were all indexed, though the pages it answered with have no text.
    expect(await f.docChat.getIngestJob.execute({ userId: 'u1', jobId: job.id })).to.include({ status: 'completed', pages: 40, chunks: 40 });
  });
});
