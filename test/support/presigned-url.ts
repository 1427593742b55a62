import { createHash, createHmac } from 'node:crypto';

/**
 * Checks an S3 presigned URL (AWS Signature V4, query-string auth, UNSIGNED-PAYLOAD) as an S3 server would: recomputes
 * the signature from the URL itself — its method, path, query and Host — with `secretKey`. s3rver does not check
 * signatures, so the end-to-end tests use this to know that a URL is signed for the host it names (S3_PUBLIC_URL),
 * independently of the minio client that made it.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html
 */
export function presignedUrlSignatureValid(signedUrl: string, secretKey: string, method = 'PUT'): boolean {
  const url = new URL(signedUrl);
  const given = url.searchParams.get('X-Amz-Signature');
  const amzDate = url.searchParams.get('X-Amz-Date');
  const credential = url.searchParams.get('X-Amz-Credential');
  const signedHeaders = url.searchParams.get('X-Amz-SignedHeaders');
  if (!given || !amzDate || !credential || signedHeaders !== 'host') return false;
  // <access key>/<yyyymmdd>/<region>/s3/aws4_request
  const [, date, region, service, terminator] = credential.split('/');
  if (!date || !region || service !== 's3' || terminator !== 'aws4_request' || !amzDate.startsWith(date)) return false;

  const query = [...url.searchParams.entries()]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [rfc3986(name), rfc3986(value)])
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const canonicalRequest = [method, url.pathname, query, `host:${url.host}`, '', 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  let key: Buffer = hmac(`AWS4${secretKey}`, date);
  for (const part of [region, 's3', 'aws4_request']) key = hmac(key, part);
  return hmac(key, stringToSign).toString('hex') === given.toLowerCase();
}

function rfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
