import { TooManyRequestsError } from './errors.js';

/** Seconds a refused client is told to wait: a question takes tens of milliseconds, a second is plenty. */
const RETRY_AFTER_SECONDS = 1;

/**
 * A cap on each user's questions in progress, so that one user asking in a loop from many clients cannot fill the
 * answer pool's queue: the others' questions keep their place. Over the cap: 429 with Retry-After.
 */
export class QuestionAdmission {
  private readonly inProgress = new Map<string, number>();

  constructor(
    private readonly perUser: number,
    private readonly onRefused: () => void = () => undefined,
  ) {}

  /** Counts the user's question in; the returned function counts it out (calling it again does nothing). */
  admit(userId: string): () => void {
    const current = this.inProgress.get(userId) ?? 0;
    if (current >= this.perUser) {
      this.onRefused();
      throw new TooManyRequestsError(`Too many questions in progress (at most ${this.perUser} at once); try again shortly`, RETRY_AFTER_SECONDS);
    }
    this.inProgress.set(userId, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inProgress.get(userId) ?? 1) - 1;
      if (left > 0) this.inProgress.set(userId, left);
      else this.inProgress.delete(userId);
    };
  }
}
