import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { UnprocessableDocumentError } from '../../core/domain/errors.js';
import type { PageArea, PageImage, PageImageRequest, PageRenderer, PageTextRequest } from '../../core/ports/page-renderer.js';
import { resolveDocumentKind } from './content-type.js';
import { writeDocumentFile } from './document-file.js';
import type { PageRenderJob, PageRenderReply } from './page-render-protocol.js';
import type { PdfReaderName } from './pdf-page-source.js';
import { DEFAULT_EXTRACTION_SETTINGS } from './child-process-document-reader.js';
import { EXTRACTION_MALLOC_ENV, liveChildren, setRef, workerEntry } from './worker-entry.js';
// The answer pool's queue of turns between users: the same fairness, for page views.
import { FairQueue } from '../answer-pool/fair-queue.js';
import { makeProcessTempDir, removeOrphanedTempDirsOnce } from '../system/process-temp-dir.js';

/** Copies of the documents whose pages are drawn live in `<tmpdir>/doc-chat-page-render-<pid>-XXXXXX`. */
const PAGE_RENDER_TEMP_PREFIX = 'doc-chat-page-render';

export interface PageRendererOptions {
  /** A page not rendered within this time kills the child (a pathological page); the request fails. Default 30 s. */
  timeoutMs?: number;
  /** V8 heap ceiling of the child, MB (native canvas memory comes on top, bounded by the image size). Default 512. */
  maxHeapMb?: number;
  /** The child exits after this long without work. Default 30 s. */
  idleMs?: number;
  /** The library that draws PDF pages (PDF_READER). Default PDFium, which reads a long PDF's file only where it needs to. */
  pdfReader?: PdfReaderName;
  /**
   * Documents whose copy is kept (temporary files, by the request's contentKey) for the next page asked for, the
   * least recently viewed let go first. A copy not viewed for idleMs is deleted, whatever else is viewed. Default 2.
   */
  keptDocuments?: number;
}

/** What drawing a page and finding text on it share: the document, the page and who asks. */
type PageRequest = Omit<PageImageRequest, 'maxSide'>;

/** A request waiting for its turn. */
interface Waiting {
  request: PageRequest;
  task: PageRenderJob['task'];
  resolve(done: PageImage | PageArea[] | null): void;
  reject(error: unknown): void;
}

/** A document's private copy, kept for the next page of it: the file and its first bytes (which tell its type). */
interface KeptCopy {
  file: string;
  head: Uint8Array;
}

interface Pending {
  resolve(done: PageImage | PageArea[] | null): void;
  reject(error: Error): void;
}

/**
 * PageRenderer in one child process (page-render-worker.ts), separate from the extraction children so that viewing a
 * page never waits behind a 5,000-page ingestion. Pages are rendered (or searched for a passage: findText) one at a
 * time: every waiting page image before any passage search (a search on a scan reads the page by OCR for seconds,
 * and the image is what a person waits to see), and within each, the people asking (`requestedBy`) in turns, each
 * one's requests in arrival order. The child is started on the first request and exits when idle. A render that
 * hangs or a child that dies fails that request only: the next request starts a fresh child.
 */
export class ChildProcessPageRenderer implements PageRenderer {
  private readonly timeoutMs: number;
  private readonly maxHeapMb: number;
  private readonly idleMs: number;
  private readonly pdfReader: PdfReaderName;
  private child: ChildProcess | undefined;
  private ready: Promise<ChildProcess> | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly draws = new FairQueue<Waiting>();
  private readonly finds = new FairQueue<Waiting>();
  private running = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private tempDir: string | undefined;
  /** Kept copies by content, least recently viewed first, with the performance.now() of their last view. */
  private readonly kept = new Map<string, { copy: KeptCopy; viewed: number }>();
  private readonly keptDocuments: number;

  constructor(options: PageRendererOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxHeapMb = options.maxHeapMb ?? 512;
    this.idleMs = options.idleMs ?? 30_000;
    this.pdfReader = options.pdfReader ?? DEFAULT_EXTRACTION_SETTINGS.pdfReader;
    this.keptDocuments = options.keptDocuments ?? 2;
    if (!Number.isInteger(this.keptDocuments) || this.keptDocuments < 0) throw new RangeError('keptDocuments must be a whole number');
    removeOrphanedTempDirsOnce(PAGE_RENDER_TEMP_PREFIX); // pages a killed server was drawing
  }

  render({ maxSide, ...request }: PageImageRequest): Promise<PageImage | null> {
    return this.queue(request, { draw: maxSide }) as Promise<PageImage | null>;
  }

  findText({ text, ...request }: PageTextRequest): Promise<PageArea[] | null> {
    return this.queue(request, { find: text }) as Promise<PageArea[] | null>;
  }

  /** Queued for its turn: its document is read (a stored one a piece at a time) only when its turn comes. */
  private queue(request: PageRequest, task: PageRenderJob['task']): Promise<PageImage | PageArea[] | null> {
    return new Promise((resolve, reject) => {
      ('draw' in task ? this.draws : this.finds).push(request.requestedBy ?? '', { request, task, resolve, reject });
      void this.runQueued();
    });
  }

  /** One request at a time until none waits. */
  private async runQueued(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let next = this.draws.shift() ?? this.finds.shift(); next; next = this.draws.shift() ?? this.finds.shift()) {
        await this.runNow(next.request, next.task).then(next.resolve, next.reject);
      }
    } finally {
      this.running = false;
    }
  }

  async close(): Promise<void> {
    this.stopChild();
    this.kept.clear();
    if (this.tempDir) fs.rmSync(this.tempDir, { recursive: true, force: true });
    this.tempDir = undefined;
  }

  private async runNow(request: PageRequest, task: PageRenderJob['task']): Promise<PageImage | PageArea[] | null> {
    clearTimeout(this.idleTimer);
    const id = this.nextId++;
    let copy: KeptCopy | undefined;
    let keep = false;
    try {
      ({ copy, keep } = await this.copyOf(request, id));
      // Checked here, cheaply: a file whose content contradicts its type never costs the child a job.
      const kind = resolveDocumentKind(copy.head, request.contentType);
      const child = await this.start();
      setRef(child, true);
      const job: PageRenderJob = { id, file: copy.file, kind, reader: this.pdfReader, page: request.page, task, keep };
      return await new Promise<PageImage | PageArea[] | null>((resolve, reject) => {
        const timer = setTimeout(() => {
          this.stopChild();
          reject(new Error(`${'find' in task ? 'Finding text on' : 'Rendering'} page ${request.page} took longer than ${this.timeoutMs} ms`));
        }, this.timeoutMs);
        const settle = () => {
          clearTimeout(timer);
          this.pending.delete(id);
        };
        this.pending.set(id, {
          resolve: (done) => (settle(), resolve(done)),
          reject: (error) => (settle(), reject(error)),
        });
        // With a callback a send to a child that just died fails here; without one Node emits it as an 'error' on
        // the child, uncaught: the server would crash. This request fails; the next one starts a fresh child.
        child.send(job, (error) => {
          if (!error) return;
          if (this.child === child) this.stopChild();
          this.pending.get(id)?.reject(new Error(`The page renderer stopped (${error.message})`));
        });
      });
    } finally {
      if (!keep) await fs.promises.rm(copy?.file ?? this.fileFor(id), { force: true });
      if (this.child) setRef(this.child, false);
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => this.rest(), this.idleMs).unref();
    }
  }

  /**
   * The document as a private file: the kept copy of its content if there is one, else a new copy (kept when the
   * request names its content, the least recently viewed copy then let go beyond keptDocuments).
   */
  private async copyOf(request: PageRequest, id: number): Promise<{ copy: KeptCopy; keep: boolean }> {
    const { contentKey } = request;
    const now = performance.now();
    // A document deleted while another is read must not stay on disk for as long as the reading goes on.
    for (const [key, { copy, viewed }] of this.kept) if (now - viewed >= this.idleMs) await this.letGo(key, copy);
    const known = contentKey === undefined ? undefined : this.kept.get(contentKey)?.copy;
    if (contentKey !== undefined && known) {
      this.kept.delete(contentKey); // and set again: now the most recently viewed
      this.kept.set(contentKey, { copy: known, viewed: now });
      return { copy: known, keep: true };
    }
    const file = this.fileFor(id);
    const copy = { file, head: await writeDocumentFile(request.document, file) };
    if (contentKey === undefined || this.keptDocuments === 0) return { copy, keep: false };
    this.kept.set(contentKey, { copy, viewed: performance.now() });
    for (const [key, old] of this.kept) {
      if (this.kept.size <= this.keptDocuments) break;
      await this.letGo(key, old.copy);
    }
    return { copy, keep: true };
  }

  /** The child may still hold the file open (it closes it on its next document): the open file outlives the name. */
  private async letGo(key: string, copy: KeptCopy): Promise<void> {
    this.kept.delete(key);
    await fs.promises.rm(copy.file, { force: true }).catch(() => {}); // a file left behind goes with the folder
  }

  private fileFor(id: number): string {
    this.tempDir ??= makeProcessTempDir(PAGE_RENDER_TEMP_PREFIX);
    return path.join(this.tempDir, `${id}`);
  }

  /** Idle: the child exits and the kept copies are deleted, so nothing of a document outlives its viewing by long. */
  private rest(): void {
    this.stopChild();
    for (const [key, { copy }] of this.kept) void this.letGo(key, copy);
  }

  private start(): Promise<ChildProcess> {
    if (this.ready) return this.ready;
    // The extraction processes' memory settings: this child draws pages and, for scans and photos, runs OCR as they do.
    const child = fork(workerEntry('page-render-worker'), [], {
      execArgv: [`--max-old-space-size=${this.maxHeapMb}`, '--max-semi-space-size=8'],
      env: { ...EXTRACTION_MALLOC_ENV, ...process.env },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    liveChildren.add(child);
    this.ready = new Promise<ChildProcess>((resolve, reject) => {
      child.on('message', (message: PageRenderReply) => {
        if (message.type === 'ready') return resolve(child);
        const waiting = this.pending.get(message.id);
        if (!waiting) return;
        if (message.type === 'image') waiting.resolve({ bytes: new Uint8Array(message.bytes), contentType: message.contentType });
        else if (message.type === 'areas') waiting.resolve(message.areas);
        else if (message.type === 'missing') waiting.resolve(null);
        else waiting.reject(message.unprocessable ? new UnprocessableDocumentError(message.message) : new Error(message.message));
      });
      child.once('exit', (code, signal) => {
        liveChildren.delete(child);
        // Requests run one at a time: once a fresh child took over, what is pending is that child's, not this one's.
        const replaced = this.child !== undefined && this.child !== child;
        if (this.child === child) {
          this.child = undefined;
          this.ready = undefined;
        }
        const error = new Error(`The page renderer stopped (${signal ?? `exit code ${code}`})`);
        reject(error);
        if (!replaced) for (const waiting of this.pending.values()) waiting.reject(error);
      });
    });
    return this.ready;
  }

  private stopChild(): void {
    const child = this.child;
    this.child = undefined;
    this.ready = undefined;
    if (child) child.kill('SIGKILL');
  }
}
