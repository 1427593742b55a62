import { expect } from 'chai';
import { ReadCancelledError } from '../../../core/domain/errors.js';
import type { ExtractedPage } from '../../../core/domain/model.js';
import { ChildProcessDocumentReader, ExtractionWorkerCrashedError } from '../../../adapters/extraction/index.js';
import { describeWithCorpus } from '../../support/corpus.js';
import { readData } from '../../support/extraction-fixtures.js';
import { eventually, isAlive, rejection } from '../../support/extraction-processes.js';
import { MERGED_CORPUS_PAGES, MERGED_SCANNED_PAGES, mergedCorpusPdf } from '../../support/merged-corpus-pdf.js';

const PDF = 'application/pdf';
const RANGE_PAGES = 40; // 309 pages: 8 ranges
const ALL_PAGES = Array.from({ length: MERGED_CORPUS_PAGES }, (_, i) => i + 1);

type Range = ReturnType<ChildProcessDocumentReader['rangesInFlight']>[number];

/** Samples the reader's ranges in flight every few milliseconds: what each was seen doing, in the order first seen. */
function watchRanges(reader: ChildProcessDocumentReader, onSample?: (ranges: Range[]) => void) {
  const seen: Range[] = [];
  const key = (range: Range) => `${range.document}:${range.firstPage}:${range.pid}`;
  const known = new Set<string>();
  const timer = setInterval(() => {
    const ranges = reader.rangesInFlight();
    for (const range of ranges) if (!known.has(key(range))) known.add(key(range)) && seen.push(range);
    onSample?.(ranges);
  }, 5);
  return { seen, stop: () => clearInterval(timer) };
}

/** Pages as the caller receives them through onPages, in the order received. */
function streamed(): { pages: ExtractedPage[]; onPages(pages: ExtractedPage[]): void } {
  const pages: ExtractedPage[] = [];
  return { pages, onPages: (batch) => pages.push(...batch) };
}

describeWithCorpus('ChildProcessDocumentReader (one long PDF read as page ranges by several processes)', function () {
  this.timeout(240_000);
  let bytes: Uint8Array;
  /** The merged PDF read whole by one process (ranges longer than it): what every ranged read must equal. */
  let reference: ExtractedPage[];

  before(async () => {
    bytes = mergedCorpusPdf();
    const reader = new ChildProcessDocumentReader({ poolSize: 1, rangePages: 10_000 });
    try {
      reference = await reader.read({ document: bytes, contentType: PDF });
    } finally {
      await reader.close();
    }
    expect(reference.map((page) => page.page)).to.deep.equal(ALL_PAGES);
    expect(MERGED_SCANNED_PAGES.map((n) => reference[n - 1].method)).to.deep.equal(['ocr', 'ocr']);
  });

  it('streams every page once, in page order, with the same text as one process reading it whole', async () => {
    const reader = new ChildProcessDocumentReader({ poolSize: 2, rangePages: RANGE_PAGES });
    const watch = watchRanges(reader);
    try {
      const stream = streamed();
      const progress: number[] = [];
      const pages = await reader.read({ document: bytes, contentType: PDF, onPages: stream.onPages, onProgress: (f) => progress.push(f) });
      expect(stream.pages.map((page) => page.page)).to.deep.equal(ALL_PAGES);
      expect(stream.pages).to.deep.equal(reference);
      expect(pages.map((page) => [page.page, page.method])).to.deep.equal(reference.map((page) => [page.page, page.method]));
      expect(progress.every((f, i) => i === 0 || f > progress[i - 1])).to.equal(true);
      expect(progress.at(-1)).to.equal(1);
      // Every range was read, by both processes.
      expect([...new Set(watch.seen.map((range) => range.firstPage))].sort((a, b) => a - b)).to.deep.equal([1, 41, 81, 121, 161, 201, 241, 281]);
      expect(new Set(watch.seen.map((range) => range.pid)).size).to.be.at.least(2);
    } finally {
      watch.stop();
      await reader.close();
    }
  });

  it('reads from a first page in the middle (a resumed job) as ranges cut from there, each later page once', async () => {
    const reader = new ChildProcessDocumentReader({ poolSize: 2, rangePages: RANGE_PAGES });
    const watch = watchRanges(reader);
    try {
      const stream = streamed();
      const progress: number[] = [];
      const pages = await reader.read({ document: bytes, contentType: PDF, firstPage: 100, onPages: stream.onPages, onProgress: (f) => progress.push(f) });
      const rest = reference.slice(99);
      expect(stream.pages.map((page) => [page.page, page.method])).to.deep.equal(rest.map((page) => [page.page, page.method]));
      expect(pages.map((page) => page.page)).to.deep.equal(rest.map((page) => page.page));
      // Running headers are judged over the pages read, so a few edge lines may differ; the pages' text is the same.
      const same = stream.pages.filter((page, i) => page.text === rest[i]!.text).length;
      expect(same / rest.length, `${same} of ${rest.length} pages read as from page 1`).to.be.above(0.9);
      expect([...new Set(watch.seen.map((range) => range.firstPage))].sort((a, b) => a - b)).to.deep.equal([100, 140, 180, 220, 260, 300]);
      // Progress is the whole document's: once the page count is known, the pages before 100 count as done.
      expect(progress.find((f) => f > 0)).to.be.at.least(99 / MERGED_CORPUS_PAGES);
      expect(progress.at(-1)).to.equal(1);
    } finally {
      watch.stop();
      await reader.close();
    }
  });

  it('says once, when the range with the last page is handed out (before that range is read), that the last pages started', async () => {
    const reader = new ChildProcessDocumentReader({ poolSize: 2, rangePages: RANGE_PAGES });
    try {
      const stream = streamed();
      const calls: { ranges: Range[]; pagesStreamed: number }[] = [];
      const onLastPagesStarted = () => calls.push({ ranges: reader.rangesInFlight(), pagesStreamed: stream.pages.length });
      const pages = await reader.read({ document: bytes, contentType: PDF, onPages: stream.onPages, onLastPagesStarted });
      expect(pages).to.have.length(MERGED_CORPUS_PAGES);
      expect(calls).to.have.length(1);
      // The last range (281-309) is in flight at that moment, other pages are still unread.
      expect(calls[0].ranges.map((range) => range.firstPage)).to.include(281);
      expect(calls[0].pagesStreamed).to.be.below(MERGED_CORPUS_PAGES - RANGE_PAGES);

      // A document of one range: once its page count is known (it fits), before read() resolves.
      const shortCalls: number[] = [];
      let resolved = false;
      const small = reader.read({ document: readData('pdfs/dmca-summary-1998.pdf'), contentType: PDF, onLastPagesStarted: () => shortCalls.push(resolved ? 1 : 0) })
        .then((result) => ((resolved = true), result));
      expect(await small).to.have.length(18);
      expect(shortCalls).to.deep.equal([0]);
    } finally {
      await reader.close();
    }
  });

  it('keeps MAX_OCR_PAGES exact across ranges read at once', async () => {
    const reader = new ChildProcessDocumentReader({ poolSize: 2, rangePages: RANGE_PAGES, maxOcrPages: 1 });
    try {
      const pages = await reader.read({ document: bytes, contentType: PDF });
      const scanned = MERGED_SCANNED_PAGES.map((n) => pages[n - 1].method).sort();
      expect(scanned).to.deep.equal(['ocr', 'ocr-skipped']);
      expect(pages.filter((page) => page.method !== 'text')).to.have.length(2);
    } finally {
      await reader.close();
    }
  });

  it('on abort mid-document stops every range (both children killed), rejects, and sends no page after', async () => {
    const reader = new ChildProcessDocumentReader({ poolSize: 2, rangePages: RANGE_PAGES });
    try {
      const controller = new AbortController();
      const stream = streamed();
      const reading = rejection(reader.read({ document: bytes, contentType: PDF, signal: controller.signal, onPages: stream.onPages }));
      let running: Range[] = [];
      await eventually(() => {
        running = reader.rangesInFlight();
        return new Set(running.map((r) => r.pid)).size === 2 && running.some((r) => r.firstPage > 1 && r.nextPage > r.firstPage);
      }, 'two processes reading ranges, one past its first page', 60_000);
      controller.abort();
      const error = await reading;
      const pagesAtRejection = stream.pages.length;
      expect(error).to.be.instanceOf(ReadCancelledError);
      expect(pagesAtRejection).to.be.below(MERGED_CORPUS_PAGES);
      expect(reader.rangesInFlight()).to.deep.equal([]);
      for (const { pid } of running) await eventually(() => !isAlive(pid!), `the child ${pid} is killed`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(stream.pages.length, 'no onPages after read() rejected').to.equal(pagesAtRejection);
      // The pool goes on with new children.
      expect(await reader.read({ document: readData('pdfs/dmca-summary-1998.pdf'), contentType: PDF })).to.have.length(18);
    } finally {
      await reader.close();
    }
  });

  it('re-reads the range of a child killed mid-range from its first page not received: every page once, same text', async () => {
    const reader = new ChildProcessDocumentReader({ poolSize: 2, rangePages: RANGE_PAGES });
    const watch = watchRanges(reader);
    try {
      const stream = streamed();
      const reading = reader.read({ document: bytes, contentType: PDF, onPages: stream.onPages });
      let victim!: Range;
      await eventually(() => {
        victim = reader.rangesInFlight().find((r) => r.firstPage > 1 && r.nextPage > r.firstPage + 2)!;
        return victim !== undefined;
      }, 'a later range with pages received', 60_000);
      process.kill(victim.pid!, 'SIGKILL');
      const pages = await reading;
      expect(pages).to.have.length(MERGED_CORPUS_PAGES);
      expect(stream.pages.map((page) => page.page)).to.deep.equal(ALL_PAGES);
      expect(stream.pages).to.deep.equal(reference);
      // It went on from where the killed child stopped (at or after the page it was on when sampled), to its range's end.
      const resumed = watch.seen.filter((r) => r.lastPage === victim.lastPage && r.firstPage > victim.firstPage);
      expect(resumed, JSON.stringify({ victim, seen: watch.seen })).to.have.length(1);
      expect(resumed[0].firstPage).to.be.at.least(victim.nextPage);
      expect(resumed[0].pid).to.not.equal(victim.pid);
    } finally {
      watch.stop();
      await reader.close();
    }
  });

  it('fails the document with the crash error when the same page kills a child twice', async () => {
    const reader = new ChildProcessDocumentReader({ poolSize: 2, rangePages: RANGE_PAGES });
    try {
      const reading = rejection(reader.read({ document: bytes, contentType: PDF }));
      let victim!: Range;
      await eventually(() => {
        victim = reader.rangesInFlight().find((r) => r.firstPage > 1 && r.nextPage > r.firstPage + 2)!;
        return victim !== undefined;
      }, 'a later range with pages received', 60_000);
      let resumed: Range | undefined;
      // The resumed range is killed as soon as it is handed out: long before its child has opened the document.
      const killer = setInterval(() => {
        resumed ??= reader.rangesInFlight().find((r) => r.lastPage === victim.lastPage && r.pid !== victim.pid && r.firstPage > victim.firstPage);
        if (resumed && isAlive(resumed.pid!)) process.kill(resumed.pid!, 'SIGKILL');
      }, 1);
      process.kill(victim.pid!, 'SIGKILL');
      const error = await reading;
      clearInterval(killer);
      expect(resumed, 'the range was handed out again once').to.not.equal(undefined);
      expect(resumed!.nextPage).to.equal(resumed!.firstPage);
      expect(error).to.be.instanceOf(ExtractionWorkerCrashedError);
      expect(error.message).to.match(/stopped unexpectedly: the process was killed by SIGKILL/);
    } finally {
      await reader.close();
    }
  });

  it('hands ranges of two running documents out in turns', async () => {
    const book = readData('pdfs/GeoTopo-komprimiert.pdf'); // 117 pages: 8 ranges of 15
    const reader = new ChildProcessDocumentReader({ poolSize: 2, rangePages: 15 });
    const watch = watchRanges(reader);
    try {
      const first = reader.read({ document: book, contentType: PDF });
      await eventually(() => reader.rangesInFlight().length === 2, 'the first document on both processes', 60_000);
      const second = reader.read({ document: book, contentType: PDF });
      const [a, b] = await Promise.all([first, second]);
      expect(a).to.deep.equal(b);
      // In the order they were handed out (a range's id grows with each hand-out): the 5 ms sampler may see a later
      // range first on a loaded machine.
      watch.seen.sort((x, y) => x.id - y.id);
      const [firstId, secondId] = [watch.seen[0].document, watch.seen.find((r) => r.document !== watch.seen[0].document)!.document];
      // From the second document's first range on, while both have ranges to hand out, they alternate.
      const order = watch.seen.slice(watch.seen.findIndex((r) => r.document === secondId)).map((r) => r.document);
      const handedOut = { [firstId]: watch.seen.length - order.length, [secondId]: 0 };
      const whileBoth: number[] = [];
      for (const document of order) {
        if (handedOut[firstId] === 8 || handedOut[secondId] === 8) break;
        whileBoth.push(document);
        handedOut[document]++;
      }
      expect(whileBoth.length, JSON.stringify(watch.seen)).to.be.at.least(6);
      expect(whileBoth.every((document, i) => i === 0 || document !== whileBoth[i - 1]), JSON.stringify(watch.seen)).to.equal(true);
    } finally {
      watch.stop();
      await reader.close();
    }
  });

  it('starts a document queued later before the long one\'s remaining ranges, and ends it long before', async () => {
    const reader = new ChildProcessDocumentReader({ poolSize: 2, rangePages: RANGE_PAGES });
    const watch = watchRanges(reader);
    try {
      const longStream = streamed();
      let longDone = false;
      const long = reader.read({ document: bytes, contentType: PDF, onPages: longStream.onPages }).then((pages) => ((longDone = true), pages));
      await eventually(() => {
        const running = reader.rangesInFlight();
        return new Set(running.map((r) => r.pid)).size === 2 && running.every((r) => r.lastPage < MERGED_CORPUS_PAGES);
      }, 'the long document on both processes, ranges left', 60_000);
      // The sampler may not have seen yet what eventually() just saw.
      const longRangesBefore = new Set([...watch.seen, ...reader.rangesInFlight()].map((r) => r.firstPage));
      const small = await reader.read({ document: readData('pdfs/dmca-summary-1998.pdf'), contentType: PDF });
      expect(small).to.have.length(18);
      expect(longDone, 'the long document is still being read').to.equal(false);
      expect(longStream.pages.length).to.be.below(MERGED_CORPUS_PAGES);
      // The first range handed out after the small document arrived was the small document's.
      const longId = watch.seen[0].document;
      const firstAfter = watch.seen.find((r) => r.document !== longId || !longRangesBefore.has(r.firstPage));
      expect(firstAfter?.document, JSON.stringify(watch.seen)).to.not.equal(longId);
      expect((await long).map((page) => page.page)).to.deep.equal(ALL_PAGES);
    } finally {
      watch.stop();
      await reader.close();
    }
  });
});
