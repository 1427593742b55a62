import { ValidationError } from './errors.js';

export const MAX_LABEL_LENGTH = 200;

/** Trims a session label and checks it is 1..200 characters. */
export function normalizeLabel(label: string): string {
  const trimmed = label.trim();
  if (trimmed.length === 0) throw new ValidationError('label must not be empty');
  if (trimmed.length > MAX_LABEL_LENGTH) throw new ValidationError(`label must be at most ${MAX_LABEL_LENGTH} characters`);
  return trimmed;
}
