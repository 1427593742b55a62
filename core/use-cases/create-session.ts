import type { Session } from '../domain/model.js';
import { normalizeLabel } from '../domain/validation.js';
import type { Clock, IdGenerator } from '../ports/clock-and-ids.js';
import type { SessionRepo } from '../ports/session-repo.js';

export class CreateSession {
  constructor(
    private readonly sessions: SessionRepo,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: { userId: string; label: string }): Promise<Session> {
    const session: Session = {
      id: this.ids.newId(),
      label: normalizeLabel(input.label),
      userId: input.userId,
      createdAt: this.clock.now().toISOString(),
    };
    await this.sessions.create(session);
    return session;
  }
}
