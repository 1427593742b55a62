import { IngestAlreadyActiveError } from '../../core/domain/errors.js';
import type { ChatMessage, IngestJob, IngestStatus, Session } from '../../core/domain/model.js';
import type { ChatRepo } from '../../core/ports/chat-repo.js';
import type { IngestJobPatch, IngestJobRepo } from '../../core/ports/ingest-job-repo.js';
import type { ErasedUploads, SessionEraser } from '../../core/ports/session-eraser.js';
import type { SessionRepo } from '../../core/ports/session-repo.js';
import type { InMemoryUploadRepo } from './in-memory-upload-repo.js';

const copy = <T>(value: T): T => structuredClone(value);

export class InMemorySessionRepo implements SessionRepo {
  readonly rows = new Map<string, Session>();

  async create(session: Session): Promise<void> {
    if (this.rows.has(session.id)) throw new Error(`duplicate session id ${session.id}`);
    this.rows.set(session.id, copy(session));
  }

  async findById(id: string): Promise<Session | null> {
    const s = this.rows.get(id);
    return s ? copy(s) : null;
  }

  async listByUser(userId: string): Promise<Session[]> {
    return [...this.rows.values()]
      .filter((s) => s.userId === userId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      .map(copy);
  }

  async rename(id: string, label: string): Promise<Session | null> {
    const s = this.rows.get(id);
    if (!s) return null;
    s.label = label;
    return copy(s);
  }

  async delete(id: string): Promise<boolean> {
    return this.rows.delete(id);
  }
}

export class InMemoryChatRepo implements ChatRepo {
  readonly rows: ChatMessage[] = [];
  /** Set to make every call fail, as a broken database would. */
  failWith: Error | null = null;

  /** `sessions`: where ownedPage looks up the session's owner (as the database joins the sessions table). */
  constructor(private readonly sessions?: SessionRepo) {}

  async appendExchange(question: ChatMessage, answer: ChatMessage): Promise<void> {
    this.check();
    this.rows.push(copy(question), copy(answer));
  }

  async page(sessionId: string, offset: number, limit: number): Promise<ChatMessage[]> {
    this.check();
    return this.rows.filter((m) => m.sessionId === sessionId).slice(offset, offset + limit).map(copy);
  }

  async ownedPage(sessionId: string, userId: string, offset: number, limit: number): Promise<{ messages: ChatMessage[]; total: number } | null> {
    if (!this.sessions) throw new Error('InMemoryChatRepo.ownedPage needs the session repo: new InMemoryChatRepo(sessions)');
    this.check();
    const session = await this.sessions.findById(sessionId);
    if (!session || session.userId !== userId) return null;
    return { messages: await this.page(sessionId, offset, limit), total: await this.count(sessionId) };
  }

  async recent(sessionId: string, limit: number): Promise<ChatMessage[]> {
    this.check();
    const mine = this.rows.filter((m) => m.sessionId === sessionId);
    return mine.slice(Math.max(0, mine.length - limit)).map(copy);
  }

  async count(sessionId: string): Promise<number> {
    this.check();
    return this.rows.filter((m) => m.sessionId === sessionId).length;
  }

  async deleteBySession(sessionId: string): Promise<number> {
    this.check();
    const before = this.rows.length;
    for (let i = this.rows.length - 1; i >= 0; i--) if (this.rows[i].sessionId === sessionId) this.rows.splice(i, 1);
    return before - this.rows.length;
  }

  private check(): void {
    if (this.failWith) throw this.failWith;
  }
}

export class InMemoryIngestJobRepo implements IngestJobRepo {
  readonly rows = new Map<string, IngestJob>();

  async create(job: IngestJob): Promise<void> {
    // Checked and stored in one synchronous step, so concurrent calls cannot both pass.
    const active = isActive(job) && this.sorted().find((j) => j.userId === job.userId && j.key === job.key && isActive(j));
    if (active) throw new IngestAlreadyActiveError(active.id);
    if (this.rows.has(job.id)) throw new Error(`duplicate ingest job id ${job.id}`);
    this.rows.set(job.id, copy(job));
  }

  async findById(id: string): Promise<IngestJob | null> {
    const j = this.rows.get(id);
    return j ? copy(j) : null;
  }

  async update(id: string, patch: IngestJobPatch): Promise<IngestJob | null> {
    const j = this.rows.get(id);
    if (!j) return null;
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) delete (j as unknown as Record<string, unknown>)[key];
      else (j as unknown as Record<string, unknown>)[key] = copy(value);
    }
    return copy(j);
  }

  async listUnfinished(): Promise<IngestJob[]> {
    return this.sorted().filter((j) => j.status === 'queued' || j.status === 'processing');
  }

  async countByStatus(): Promise<Partial<Record<IngestStatus, number>>> {
    const counts: Partial<Record<IngestStatus, number>> = {};
    for (const j of this.rows.values()) counts[j.status] = (counts[j.status] ?? 0) + 1;
    return counts;
  }

  async listBySession(sessionId: string): Promise<IngestJob[]> {
    return this.sorted().filter((j) => j.sessionId === sessionId);
  }

  async listByKey(key: string): Promise<IngestJob[]> {
    return this.sorted().filter((j) => j.key === key);
  }

  async findCompletedBySha256(sessionId: string, sha256: string): Promise<IngestJob | null> {
    return this.sorted().find((j) => j.sessionId === sessionId && j.sha256 === sha256 && j.status === 'completed') ?? null;
  }

  async listCompletedByUser(userId: string, options: { sha256?: string; limit: number }): Promise<IngestJob[]> {
    return this.sorted()
      .filter((j) => j.userId === userId && j.status === 'completed' && j.sha256 !== undefined)
      .filter((j) => options.sha256 === undefined || j.sha256 === options.sha256)
      .reverse()
      .slice(0, options.limit);
  }

  async findActiveByKey(userId: string, key: string): Promise<IngestJob | null> {
    return this.sorted().find((j) => j.userId === userId && j.key === key && isActive(j)) ?? null;
  }

  async deleteBySession(sessionId: string): Promise<number> {
    let n = 0;
    for (const [id, j] of this.rows) if (j.sessionId === sessionId && this.rows.delete(id)) n++;
    return n;
  }

  private sorted(): IngestJob[] {
    return [...this.rows.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(copy);
  }
}

/** SessionEraser over the in-memory repos: checks, then deletes without awaiting in between (all or nothing). */
export class InMemorySessionEraser implements SessionEraser {
  /** Set to make the next erase fail before it changes anything, as a failed transaction would. */
  failWith: Error | null = null;

  constructor(
    private readonly repos: { sessions: InMemorySessionRepo; chats: InMemoryChatRepo; jobs: InMemoryIngestJobRepo; uploads: InMemoryUploadRepo },
  ) {}

  async erase(sessionId: string, settled: ErasedUploads): Promise<void> {
    if (this.failWith) throw this.failWith;
    const { sessions, chats, jobs, uploads } = this.repos;
    for (let i = chats.rows.length - 1; i >= 0; i--) if (chats.rows[i].sessionId === sessionId) chats.rows.splice(i, 1);
    for (const [id, job] of jobs.rows) if (job.sessionId === sessionId) jobs.rows.delete(id);
    for (const key of settled.remove) uploads.rows.delete(key);
    for (const key of settled.release) {
      const record = uploads.rows.get(key);
      delete record?.ingestedAt;
      delete record?.etag;
    }
    sessions.rows.delete(sessionId);
  }

  async eraseDocuments(sessionId: string, jobIds: readonly string[], settled: ErasedUploads): Promise<void> {
    if (this.failWith) throw this.failWith;
    const { jobs, uploads } = this.repos;
    for (const id of jobIds) if (jobs.rows.get(id)?.sessionId === sessionId) jobs.rows.delete(id);
    for (const key of settled.remove) uploads.rows.delete(key);
    for (const key of settled.release) {
      const record = uploads.rows.get(key);
      delete record?.ingestedAt;
      delete record?.etag;
    }
  }
}

const isActive = (job: IngestJob) => job.status === 'queued' || job.status === 'processing';
