import { UPLOAD_STALL_MS, type UploadTypes } from './upload-rules';
import type { ChatMessage, IngestJob, LibraryDocument, PageArea, SearchMatches, Session, Source } from './types';

/** A 401 from the API: the app returns to sign-in with a message. */
export class Unauthorized extends Error {}

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** The public API (docs/api.md), with the caller's token in the Authorization header and nowhere else. */
export class Api {
  constructor(private readonly token: () => string | undefined, private readonly onUnauthorized: () => void) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const token = this.token();
    return { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...extra };
  }

  async request(method: string, path: string, body?: unknown, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(`/api/v1${path}`, {
      ...init,
      method,
      headers: this.headers(body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' }),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 401) {
      this.onUnauthorized();
      throw new Unauthorized('Unauthorized Access');
    }
    if (!response.ok) throw new ApiError(response.status, await errorText(response));
    return response;
  }

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await (await this.request(method, path, body)).json()) as T;
  }

  listSessions = () => this.json<Session[]>('GET', '/session/');
  createSession = async (label: string) => (await this.json<{ data: Session }>('POST', '/session/', { label })).data;
  renameSession = async (id: string, label: string) => (await this.json<{ data: Session }>('PATCH', `/session/${enc(id)}`, { label })).data;
  deleteSession = async (id: string) => void (await this.request('DELETE', `/session/${enc(id)}`));

  listDocuments = async (sessionId: string) => (await this.json<{ data: IngestJob[] }>('GET', `/session/${enc(sessionId)}/documents`)).data;
  deleteDocument = async (sessionId: string, ingestId: string) => void (await this.request('DELETE', `/session/${enc(sessionId)}/documents/${enc(ingestId)}`));
  library = () => this.json<{ data: LibraryDocument[]; truncated: boolean }>('GET', '/documents');
  /** Adds a library document to the session (its chunks copied, nothing uploaded): the session's job of it. */
  addLibraryDocument = async (sessionId: string, documentId: string) =>
    (await this.json<{ data: IngestJob }>('POST', `/session/${enc(sessionId)}/documents`, { documentId })).data;
  ingestJob = async (id: string) => (await this.json<{ data: IngestJob }>('GET', `/ingest/${enc(id)}`)).data;

  uploadTypes = async () => (await this.json<{ data: UploadTypes }>('GET', '/ingest/upload/types')).data;
  uploadUrl = async (file: { filename: string; contentType: string; contentSize: number }) =>
    (await this.json<{ uploadData: { signedUrl: string; key: string } }>('POST', '/ingest/upload/url', file)).uploadData;
  ingest = async (body: { key: string; filename: string; session_id: string; tags: Record<string, string> }) =>
    (await this.json<{ data: string }>('POST', '/ingest/process', body)).data;

  history = (sessionId: string, page: number) =>
    this.json<{ data: ChatMessage[]; total?: number }>('GET', `/chat/history/${enc(sessionId)}?page=${page}`);
  /** The caller's sessions by name and messages by text matching `query` (400 when it is blank or over 200 characters). */
  search = async (query: string) => (await this.json<{ data: SearchMatches }>('GET', `/search?q=${encodeURIComponent(query)}`)).data;
  clearChat = async (sessionId: string) => void (await this.request('DELETE', `/chat/${enc(sessionId)}`));

  /**
   * The rendered page, `size` px on its longest side, as a blob: URL (an <img src> could not carry the token). The
   * caller revokes it.
   */
  async pageImage(ingestId: string, page: number, size: number): Promise<string> {
    const response = await this.request('GET', `/ingest/${enc(ingestId)}/pages/${page}?width=${size}`);
    return URL.createObjectURL(await response.blob());
  }

  /** Where a passage (a source's excerpt) is drawn on a page: areas as fractions of the page image; [] if not found. */
  findOnPage = async (ingestId: string, page: number, text: string) =>
    (await this.json<{ data: PageArea[] }>('GET', `/ingest/${enc(ingestId)}/pages/${page}/find?text=${encodeURIComponent(text)}`)).data;

  /** A unit of a document without pages (a sheet, a slide) as plain text, with its label. */
  pageText = async (ingestId: string, page: number) =>
    (await this.json<{ data: { label: string; text: string } }>('GET', `/ingest/${enc(ingestId)}/pages/${page}/text`)).data;

  /** Streams an answer (server-sent events read with fetch: EventSource cannot POST or send a header). */
  async ask(
    body: { message: string; sessionId: string; filters?: Record<string, string[]>; documents?: string[] },
    on: { delta(text: string): void; sources(sources: Source[]): void },
    signal: AbortSignal,
  ): Promise<void> {
    const response = await fetch('/api/v1/chat/completions', {
      method: 'POST',
      headers: this.headers({ Accept: 'text/event-stream', 'Content-Type': 'application/json' }),
      body: JSON.stringify(body),
      signal,
    });
    if (response.status === 401) {
      this.onUnauthorized();
      throw new Unauthorized('Unauthorized Access');
    }
    if (!response.ok) throw new ApiError(response.status, await errorText(response));
    if (!response.headers.get('Content-Type')?.startsWith('text/event-stream')) {
      const answer = (await response.json()) as { data: string; sources?: Source[] };
      on.delta(answer.data);
      on.sources(answer.sources ?? []);
      return;
    }
    for await (const event of serverSentEvents(response.body!)) {
      const data = JSON.parse(event.data) as { text?: string; sources?: Source[]; error?: string };
      if (event.event === 'delta') on.delta(data.text ?? '');
      else if (event.event === 'sources') on.sources(data.sources ?? []);
      else if (event.event === 'error') throw new ApiError(500, data.error ?? 'The answer failed');
    }
  }
}

const enc = encodeURIComponent;

async function errorText(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: string };
    if (body.error) return body.error;
  } catch {
    // Not JSON: the status says enough.
  }
  return `${response.status} ${response.statusText}`;
}

/** Splits a text/event-stream body into events (blank-line separated `event:` and `data:` lines). */
export async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: string }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length) yield { event, data: data.join('\n') };
    }
  }
}

/** PUTs a file to its signed URL with upload progress (fetch has none for request bodies). No token: the URL is signed. */
export function putWithProgress(url: string, file: File, contentType: string, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const settle = (error?: Error) => {
      clearTimeout(watchdog);
      if (error) reject(error);
      else resolve();
    };
    // Restarted by every sign of life; firing means nothing moved for UPLOAD_STALL_MS.
    const watch = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        xhr.abort();
        settle(new Error(`Upload stalled: the storage server took nothing for ${UPLOAD_STALL_MS / 1000} s. Try again.`));
      }, UPLOAD_STALL_MS);
    };
    xhr.open('PUT', url);
    xhr.setRequestHeader('Content-Type', contentType);
    xhr.upload.onprogress = (event) => {
      watch();
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.upload.onload = watch;
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return settle();
      let message = `Upload failed (${xhr.status})`;
      try {
        message = (JSON.parse(xhr.responseText) as { error?: string }).error ?? message;
      } catch {
        // An object store's XML error: keep the status.
      }
      settle(new Error(message));
    };
    xhr.onerror = () => settle(new Error('Upload failed: the storage server could not be reached'));
    watch();
    xhr.send(file);
  });
}
