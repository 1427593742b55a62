import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { PRIVATE_FILE_MODE } from '../system/private-files.js';

export type UploadBody = AsyncIterable<Uint8Array | string> | NodeJS.ReadableStream;

export type ReceiveResult = { kind: 'ok'; bytes: number; sha256: string } | { kind: 'too-large' } | { kind: 'interrupted' };

/**
 * Streams `body` into a new owner-only `file`, hashing it, and stops as soon as it exceeds `limit` bytes. Does not
 * destroy a Node stream it stops reading early: the caller decides what to do with the rest of the request.
 */
export async function receiveBody(body: UploadBody, file: string, limit: number): Promise<ReceiveResult> {
  const handle = await fs.open(file, 'wx', PRIVATE_FILE_MODE);
  const hash = createHash('sha256');
  try {
    let bytes = 0;
    const iterator = iterate(body);
    for (;;) {
      let next: IteratorResult<Uint8Array | string>;
      try {
        next = await iterator.next();
      } catch {
        return { kind: 'interrupted' };
      }
      if (next.done) break;
      const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
      bytes += chunk.byteLength;
      if (bytes > limit) {
        // Stop reading. For a Node stream the iterator was made with destroyOnReturn: false, so
        // this only detaches it; the request stays open for the refusal to be sent.
        await iterator.return?.();
        return { kind: 'too-large' };
      }
      hash.update(chunk);
      await handle.write(chunk);
    }
    await handle.datasync();
    return { kind: 'ok', bytes, sha256: hash.digest('hex') };
  } finally {
    await handle.close();
  }
}

function iterate(body: UploadBody): AsyncIterator<Uint8Array | string> {
  const stream = body as NodeJS.ReadableStream & { iterator?: (options: { destroyOnReturn: boolean }) => AsyncIterableIterator<Uint8Array> };
  if (typeof stream.iterator === 'function') return stream.iterator({ destroyOnReturn: false });
  return (body as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]();
}
