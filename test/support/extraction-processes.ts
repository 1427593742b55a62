import { expect } from 'chai';
import { PDFDocument } from 'pdf-lib';
import { childProcesses } from './child-processes.js';
import { scannedPdf } from './generated-documents.js';

const SCAN_LINES = ['Huckleberry Finn went tip-toeing along a path', 'amongst the trees back towards the end of', "the widow's garden."];

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(Error);
    return error as Error;
  }
  expect.fail('expected the promise to reject');
}

/** Our extraction children (found by their entry file in the command line). */
export function childPids(): number[] {
  return childProcesses('extraction-worker');
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until `check()` holds, failing after `timeoutMs`. */
export async function eventually(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) expect.fail(`${what} (still not after ${timeoutMs} ms)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A PDF of `count` copies of a generated scanned page (no text layer: every page needs OCR). */
export async function scannedPages(count: number): Promise<Uint8Array> {
  const scan = await PDFDocument.load(await scannedPdf([SCAN_LINES]));
  const doc = await PDFDocument.create();
  for (const page of await doc.copyPages(scan, Array(count).fill(0))) doc.addPage(page);
  return doc.save();
}
