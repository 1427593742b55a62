import fs from 'node:fs';
import path from 'node:path';
import { CliError } from './cli-error.js';

/** What the service ingests, by file extension (the content is checked again by the service). */
const CONTENT_TYPES: Record<string, string> = { '.pdf': 'application/pdf', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg' };

export interface DocumentFile {
  /** Where it is read from. */
  file: string;
  /** How the output names it: as given, or its path inside the folder given. */
  display: string;
  /** The name the service stores and cites (its sources name it). */
  filename: string;
  contentType: string;
  size: number;
}

/**
 * The documents among `paths`: files as given, folders walked recursively in name order. Other files are returned
 * as skipped; hidden entries (".git", ".DS_Store") are passed over silently. A path that does not exist is an error,
 * raised before anything is uploaded.
 */
export function collectDocuments(paths: string[]): { documents: DocumentFile[]; skipped: string[] } {
  const documents: DocumentFile[] = [];
  const skipped: string[] = [];
  const visit = (file: string, display: string, stat: fs.Stats) => {
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(file).sort()) {
        if (entry.startsWith('.')) continue;
        const child = path.join(file, entry);
        visit(child, display ? path.join(display, entry) : entry, fs.statSync(child));
      }
      return;
    }
    const contentType = CONTENT_TYPES[path.extname(file).toLowerCase()];
    if (!stat.isFile() || !contentType) skipped.push(display);
    else documents.push({ file, display, filename: path.basename(file), contentType, size: stat.size });
  };
  const roots = paths.map((given) => {
    const stat = fs.statSync(given, { throwIfNoEntry: false });
    if (!stat) throw new CliError(`no such file or folder: ${given}`);
    return { given, stat };
  });
  for (const { given, stat } of roots) visit(given, stat.isDirectory() ? '' : given, stat);
  return { documents, skipped };
}
