import fs from 'node:fs';
import { Readable } from 'node:stream';
import { CliError } from './cli-error.js';

export interface SessionJson {
  id: string;
  label: string;
}

export interface UploadData {
  signedUrl: string;
  key: string;
}

/** GET /api/v1/ingest/:id's record, as far as the client reads it. */
export interface JobJson {
  id: string;
  status: 'queued' | 'processing' | 'completed' | 'failed';
  stage?: string;
  progress?: number;
  filename: string;
  error?: string;
  pages?: number;
  chunks?: number;
  reusedFrom?: string;
}

export interface AnswerJson {
  answer: string;
  sources: { filename: string; page: number; excerpt?: string; cited?: boolean; unit?: string }[];
}

/** An HTTP answer the command cannot use; the message is the server's own error text where it gave one. */
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    readonly serverMessage: string,
    what: string,
  ) {
    super(status === 401 ? `the server refused the token (401 ${serverMessage})` : `${what} failed: ${status} ${serverMessage}`);
    this.name = 'ApiError';
  }
}

/** The service's HTTP API as the command-line client uses it: every call either returns its data or throws a CliError. */
export class DocChatClient {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly token: string,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  listSessions(): Promise<SessionJson[]> {
    return this.call('GET', '/session/', 'listing sessions');
  }

  async createSession(label: string): Promise<SessionJson> {
    return (await this.call<{ data: SessionJson }>('POST', '/session/', 'creating the session', { label })).data;
  }

  async uploadUrl(filename: string, contentType: string, contentSize: number): Promise<UploadData> {
    const body = { filename, contentType, contentSize };
    return (await this.call<{ uploadData: UploadData }>('POST', '/ingest/upload/url', 'asking for an upload URL', body)).uploadData;
  }

  /** PUTs the file to its signed URL as a stream, reporting the bytes read so far. */
  async put(upload: UploadData, file: string, contentType: string, size: number, onBytes: (sent: number) => void): Promise<void> {
    const stream = fs.createReadStream(file);
    let sent = 0;
    stream.on('data', (chunk) => onBytes((sent += chunk.length)));
    const init = {
      method: 'PUT',
      body: Readable.toWeb(stream) as ReadableStream,
      duplex: 'half',
      headers: { 'Content-Type': contentType, 'Content-Length': String(size) },
    } as RequestInit;
    const res = await this.fetch(upload.signedUrl, init).finally(() => stream.destroy());
    if (!res.ok) throw new ApiError(res.status, await errorText(res), 'the upload');
  }

  async startIngestion(key: string, filename: string, sessionId: string, tags: Record<string, string>): Promise<string> {
    const body = { key, filename, session_id: sessionId, tags };
    return (await this.call<{ data: string }>('POST', '/ingest/process', 'starting the ingestion', body)).data;
  }

  async job(id: string): Promise<JobJson> {
    return (await this.call<{ data: JobJson }>('GET', `/ingest/${encodeURIComponent(id)}`, 'reading the job status')).data;
  }

  /** The session's documents (ingest jobs), newest first. */
  async documents(sessionId: string): Promise<JobJson[]> {
    return (await this.call<{ data: JobJson[] }>('GET', `/session/${encodeURIComponent(sessionId)}/documents`, 'listing the documents')).data;
  }

  async ask(sessionId: string, message: string, only: { institution?: string; documents?: string[] } = {}): Promise<AnswerJson> {
    const { institution, documents } = only;
    const body = { sessionId, message, ...(institution !== undefined && { institution }), ...(documents !== undefined && { documents }) };
    const res = await this.call<{ data: string; sources: AnswerJson['sources'] }>('POST', '/chat/completions', 'asking', body);
    return { answer: res.data, sources: res.sources };
  }

  private async call<T>(method: string, path: string, what: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}`, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await this.fetch(`${this.baseUrl}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!res.ok) throw new ApiError(res.status, await errorText(res), what);
    return (await res.json()) as T;
  }

  /** fetch, with a network failure turned into one line naming the address that could not be reached. */
  private async fetch(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, init);
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code;
      const origin = new URL(url).origin;
      if (code === 'ECONNREFUSED') throw new CliError(`cannot reach ${origin}: is the server running?`);
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') throw new CliError(`cannot reach ${origin}: unknown host`);
      const cause = (error as { cause?: Error }).cause;
      throw new CliError(`cannot reach ${origin}: ${cause?.message ?? (error as Error).message}`);
    }
  }
}

/** The `error` field of a JSON error body, else the status text. */
async function errorText(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch {
    // not JSON: fall through
  }
  return res.statusText || text.slice(0, 200);
}
