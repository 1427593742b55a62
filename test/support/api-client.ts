/** A small client for the service's HTTP API, used by end-to-end tests and benchmarks. */
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

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (this.token) (init.headers as Record<string, string>).Authorization = `Bearer ${this.token}`;
    if (body !== undefined) {
      (init.headers as Record<string, string>)['Content-Type'] ??= 'application/json';
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(`${this.baseUrl}${path}`, init);
    const text = await res.text();
    let parsed: unknown = undefined;
    if (text && (res.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
    return { status: res.status, body: parsed as T, text, headers: res.headers };
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
    const put = await fetch(res.body.uploadData.signedUrl, { method: 'PUT', body: bytes, headers: { 'Content-Type': contentType } });
    if (!put.ok) throw new Error(`PUT: ${put.status} ${await put.text()}`);
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

  async uploadAndIngest(sessionId: string, filename: string, bytes: Uint8Array, contentType: string, tags: Record<string, unknown> = {}) {
    const key = await this.upload(filename, bytes, contentType);
    const jobId = await this.ingest(sessionId, key, filename, tags);
    return { key, jobId };
  }

  async ask(sessionId: string, message: string, institution?: string) {
    return this.post('/api/v1/chat/completions', { message, sessionId, ...(institution !== undefined && { institution }) });
  }
}
