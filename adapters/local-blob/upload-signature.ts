import { createHmac, timingSafeEqual } from 'node:crypto';

/** What an upload URL's signature covers besides the key. */
export interface SignedFields {
  /** Unix seconds. */
  expires: string;
  type: string;
  size: string;
}

export type UploadQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

export type SignatureCheck = { ok: true; fields: SignedFields; expiresAtMs: number } | { ok: false; error: string };

const DIGITS = /^\d{1,15}$/;
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/** HMAC-SHA256 over method, key, expiry, content type and size: the local store's presigned upload URLs. */
export class UploadSigner {
  private readonly secret: Buffer;

  constructor(secret: string | Uint8Array) {
    this.secret = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
    if (this.secret.length < 16) throw new Error('LocalBlobStore: secret must be at least 16 bytes');
  }

  /** The query string of an upload URL for `key`. */
  query(key: string, fields: SignedFields): string {
    return new URLSearchParams({ ...fields, sig: this.sign(key, fields) }).toString();
  }

  /** Checks the query of a PUT against the key it was sent to; expiry is checked against `nowMs`. */
  verify(key: string, query: UploadQuery, nowMs: number): SignatureCheck {
    const expires = single(query.expires);
    const type = single(query.type);
    const size = single(query.size);
    const sig = single(query.sig);
    if (
      expires === undefined || !DIGITS.test(expires) ||
      size === undefined || !DIGITS.test(size) ||
      type === undefined || type === '' ||
      sig === undefined || !HEX_SHA256.test(sig)
    ) {
      return { ok: false, error: 'Missing or malformed upload signature' };
    }
    const fields = { expires, type, size };
    const expected = Buffer.from(this.sign(key, fields), 'hex');
    const given = Buffer.from(sig.toLowerCase(), 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, error: 'Invalid upload signature' };
    const expiresAtMs = Number(expires) * 1000;
    if (nowMs >= expiresAtMs) return { ok: false, error: 'Upload URL has expired' };
    return { ok: true, fields, expiresAtMs };
  }

  private sign(key: string, fields: SignedFields): string {
    // Each field is percent-encoded so that the `|` separator cannot be forged from inside a field.
    const message = ['PUT', key, fields.expires, fields.type, fields.size].map(encodeURIComponent).join('|');
    return createHmac('sha256', this.secret).update(message, 'utf8').digest('hex');
  }
}

function single(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
