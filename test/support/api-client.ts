import { checkResponse, checkUnknownRouteResponse } from './openapi-check.js';
import { parseServerSentEvents, type ServerSentEvent } from './server-sent-events.js';

/**
 * A small client for the service's HTTP API, used by end-to-end tests and benchmarks. Every response it receives is
 * checked against the OpenAPI document (openapi-check.ts): an undeclared status or a body off its schema throws.
 */
export interface ApiResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private token?: string,
  ) {}

  withToken(token: string | undefined): ApiClient {
    return new ApiClient(this.baseUrl, token);
  }

  /** `unknownRoute`: the path is meant to be no route of the API; checked as the document says such paths answer. */
  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    options: { unknownRoute?: boolean } = {},
  ): Promise<ApiResponse<T>> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (this.token) (init.headers as Record<string, string>).Authorization = `Bearer ${this.token}`;
    if (body !== undefined) {
      (init.headers as Record<string, string>)['Content-Type'] ??= 'application/json';
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(`${this.baseUrl}${path}`, init);
    const text = await res.text();
    (options.unknownRoute ? checkUnknownRouteResponse : checkResponse)({ method, path, status: res.status, headers: res.headers, text });
    return { status: res.status, body: parseJson<T>(res.headers, text), text, headers: res.headers };
  }

  /**
   * PUT a file to a signed upload URL. The service's own upload route (embedded file store) is checked against the
   * document like the API; an object store's URL (S3) is another server's API and is not.
   */
  async putToSignedUrl(url: string, body: Uint8Array | string, contentType: string): Promise<ApiResponse> {
    const res = await fetch(url, { method: 'PUT', body, headers: { 'Content-Type': contentType } });
    const text = await res.text();
    const target = new URL(url);
    if (target.origin === new URL(this.baseUrl).origin) {
      checkResponse({ method: 'PUT', path: `${target.pathname}${target.search}`, status: res.status, headers: res.headers, text });
    }
    return { status: res.status, body: parseJson(res.headers, text), text, headers: res.headers };
  }

  /** A GET whose body may be binary (a page image): the bytes, and the response checked against the document. */
  async getBinary(path: string, headers: Record<string, string> = {}): Promise<ApiResponse & { bytes: Uint8Array }> {
    const init: RequestInit = { headers: this.token ? { ...headers, Authorization: `Bearer ${this.token}` } : { ...headers } };
    const res = await fetch(`${this.baseUrl}${path}`, init);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const type = res.headers.get('content-type') ?? '';
    const text = type.startsWith('image/') ? String(bytes.length) : new TextDecoder().decode(bytes);
    checkResponse({ method: 'GET', path, status: res.status, headers: res.headers, text });
    return { status: res.status, body: parseJson(res.headers, text), text, headers: res.headers, bytes };
  }

  get<T = any>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = any>(path: string, body?: unknown) {
    return this.request<T>('POST', path, body);
  }
  patch<T = any>(path: string, body?: unknown) {
    return this.request<T>('PATCH', path, body);
  }
  delete<T = any>(path: string) {
    return this.request<T>('DELETE', path);
  }

  async createSession(label = 'test session'): Promise<string> {
    const res = await this.post('/api/v1/session/', { label });
    if (res.status !== 201) throw new Error(`create session: ${res.status} ${res.text}`);
    return res.body.data.id as string;
  }

  /** Upload URL → PUT → returns the key. */
  async upload(filename: string, bytes: Uint8Array, contentType: string): Promise<string> {
    const res = await this.post('/api/v1/ingest/upload/url', { filename, contentType, contentSize: bytes.length });
    if (res.status !== 200) throw new Error(`upload url: ${res.status} ${res.text}`);
    const put = await this.putToSignedUrl(res.body.uploadData.signedUrl, bytes, contentType);
    if (put.status !== 200) throw new Error(`PUT: ${put.status} ${put.text}`);
    return res.body.uploadData.key as string;
  }

  async ingest(sessionId: string, key: string, filename: string, tags: Record<string, unknown> = {}): Promise<string> {
    const res = await this.post('/api/v1/ingest/process', { key, filename, session_id: sessionId, tags });
    if (res.status !== 201) throw new Error(`ingest: ${res.status} ${res.text}`);
    return res.body.data as string;
  }

  /** Polls the job until it is completed or failed. */
  async waitForJob(jobId: string, timeoutMs = 120_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await this.get(`/api/v1/ingest/${jobId}`);
      if (res.status !== 200) throw new Error(`job status: ${res.status} ${res.text}`);
      const job = res.body.data;
      if (job.status === 'completed' || job.status === 'failed') return job;
      if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Polls the session's documents until it has `count` and each is completed or failed (an e-mail's attachments come later). */
  async waitForDocuments(sessionId: string, count: number, timeoutMs = 120_000): Promise<any[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await this.get(`/api/v1/session/${sessionId}/documents`);
      if (res.status !== 200) throw new Error(`documents: ${res.status} ${res.text}`);
      const documents: any[] = res.body.data;
      if (documents.length >= count && documents.every((d) => d.status === 'completed' || d.status === 'failed')) return documents;
      if (Date.now() > deadline) throw new Error(`session ${sessionId} has ${documents.length} documents, not all finished, after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async uploadAndIngest(sessionId: string, filename: string, bytes: Uint8Array, contentType: string, tags: Record<string, unknown> = {}) {
    const key = await this.upload(filename, bytes, contentType);
    const jobId = await this.ingest(sessionId, key, filename, tags);
    return { key, jobId };
  }

  /** POST /chat/completions asking for server-sent events; the whole stream is read, checked against the document, parsed. */
  async askStream(body: Record<string, unknown>): Promise<StreamedAnswer> {
    const res = await this.request('POST', '/api/v1/chat/completions', body, { Accept: 'text/event-stream' });
    const streamed = (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
    return { ...res, events: streamed ? parseServerSentEvents(res.text).events : [] };
  }

  /** The same request, unchecked, handing back the live response: to read events as they come, or to go away mid-answer. */
  openStream(body: Record<string, unknown>, signal: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'text/event-stream' };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    return fetch(`${this.baseUrl}/api/v1/chat/completions`, { method: 'POST', headers, body: JSON.stringify(body), signal });
  }

  async ask(sessionId: string, message: string, institution?: string) {
    return this.post('/api/v1/chat/completions', { message, sessionId, ...(institution !== undefined && { institution }) });
  }
}

/** A streamed answer: the response as ApiClient.request gives it, and its events (none when it answered JSON). */
export interface StreamedAnswer extends ApiResponse {
  events: ServerSentEvent[];
}

function parseJson<T>(headers: Headers, text: string): T {
  return (text && (headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : undefined) as T;
}
