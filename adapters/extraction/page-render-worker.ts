/**
 * Entry point of the page-image child process (forked by ChildProcessPageRenderer, with an IPC channel): one page at
 * a time, so rendering never runs on the server's event loop and a native crash or runaway memory costs only this
 * process.
 */
import { UnprocessableDocumentError } from '../../core/domain/errors.js';
import { renderPageImage } from './page-image.js';
import type { PageRenderJob, PageRenderReply } from './page-render-protocol.js';

if (!process.send) throw new Error('page-render-worker must run as a forked child process with an IPC channel');
process.on('disconnect', () => process.exit(0));
if (!process.connected) process.exit(0);

const reply = (message: PageRenderReply): void => {
  if (process.connected) process.send!(message, undefined, undefined, () => {});
};

process.on('message', async ({ id, file, kind, reader, page, maxSide }: PageRenderJob) => {
  try {
    const image = await renderPageImage({ file }, kind, page, maxSide, reader);
    reply(image ? { id, type: 'image', bytes: image.bytes, contentType: image.contentType } : { id, type: 'missing' });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const name = error instanceof Error ? error.name : '';
    // pdf.js's errors for a file that is not a readable PDF.
    const unprocessable = error instanceof UnprocessableDocumentError || /InvalidPDF|FormatError|PasswordException|Unsupported JPEG|JpegError/.test(`${name} ${message}`);
    reply({ id, type: 'error', unprocessable, message });
  }
});

reply({ type: 'ready' });
