import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ensurePrivateDir, ensurePrivateFile, PRIVATE_FILE_MODE } from './private-files.js';

/** Shorter secrets are guessable; the same minimum as AUTH_JWT_SECRET. */
export const MIN_SECRET_LENGTH = 32;

/**
 * Reads a secret kept in a file, creating it (48 random bytes, owner-only) the first time. An existing file holding
 * fewer than 32 characters is refused rather than used: someone wrote it by hand, and a weak key must not sign.
 * Its folder is made owner-only, and an existing file narrowed to owner-only.
 */
export function loadOrCreateSecret(file: string): string {
  ensurePrivateDir(path.dirname(file));
  try {
    const content = fs.readFileSync(file, 'utf8');
    ensurePrivateFile(file);
    return checked(file, content);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(48).toString('base64url');
  try {
    // 'wx' fails if another process created it meanwhile; then theirs wins.
    fs.writeFileSync(file, `${secret}\n`, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return checked(file, fs.readFileSync(file, 'utf8'));
    throw error;
  }
}

function checked(file: string, content: string): string {
  const secret = content.trim();
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new Error(`Secret file ${file} holds ${secret.length} characters; at least ${MIN_SECRET_LENGTH} are required (replace it, or delete it to have one generated)`);
  }
  return secret;
}
