import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { issueLocalToken } from './issue-token.js';

/** How long a token given to the browser app lasts: a working day; the app asks for a new one at sign-in after. */
export const OPEN_TOKEN_TTL_SECONDS = 12 * 3600;

/**
 * `doc-chat open`: the web app's address with a fresh token in its fragment (`/#token=…`: a fragment never reaches a
 * server or a Referer, and the app moves it to sessionStorage and out of the address bar at once). Printed, and on a
 * desktop (DISPLAY or WAYLAND_DISPLAY set, `xdg-open` on PATH) opened in the default browser.
 */
export async function openCommand(user: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<{ url: string; opened: boolean }> {
  const config = loadConfig();
  const token = await issueLocalToken(user ?? defaultUser(), OPEN_TOKEN_TTL_SECONDS);
  const url = `${config.publicUrl}/#token=${encodeURIComponent(token)}`;
  return { url, opened: openInBrowser(url, env) };
}

function defaultUser(): string {
  try {
    return os.userInfo().username || 'local';
  } catch {
    return 'local';
  }
}

/** Starts `xdg-open <url>` detached when there is a desktop to open it on; false when there is none. */
export function openInBrowser(url: string, env: NodeJS.ProcessEnv): boolean {
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return false;
  const opener = findOnPath('xdg-open', env.PATH ?? '');
  if (!opener) return false;
  const child = spawn(opener, [url], { detached: true, stdio: 'ignore', env });
  child.on('error', () => undefined); // the URL is printed anyway
  child.unref();
  return true;
}

function findOnPath(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
