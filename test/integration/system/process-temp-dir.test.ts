import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { makeProcessTempDir, removeOrphanedTempDirs } from '../../../adapters/system/process-temp-dir.js';

/** The pid of a process that has run and exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('temporary folders of processes that were killed', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-orphans-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function folder(name: string, withFile = true): string {
    const target = path.join(dir, name);
    fs.mkdirSync(target);
    if (withFile) fs.writeFileSync(path.join(target, 'document-1'), 'a copy of somebody’s document');
    return target;
  }

  it('removes the folders of a prefix whose process is gone, with what they hold, and keeps every other folder', () => {
    const dead = deadPid();
    expect(dead).to.be.greaterThan(0);
    const orphan = folder(`doc-chat-extraction-${dead}-Ab12Cd`);
    const ours = folder(`doc-chat-extraction-${process.pid}-Ef34Gh`);
    const otherPrefix = folder(`doc-chat-page-render-${dead}-Ij56Kl`);
    const longerPrefix = folder(`doc-chat-extraction-worker-${dead}-Mn78Op`);
    const notOurPattern = folder(`doc-chat-extraction-${dead}-notsixchars`);
    const file = path.join(dir, `doc-chat-extraction-${dead}-Qr90St`);
    fs.writeFileSync(file, 'a file, not a folder');

    expect(removeOrphanedTempDirs('doc-chat-extraction', dir)).to.deep.equal([orphan]);
    expect(fs.existsSync(orphan)).to.equal(false);
    for (const kept of [ours, otherPrefix, longerPrefix, notOurPattern, file]) expect(fs.existsSync(kept), kept).to.equal(true);

    expect(removeOrphanedTempDirs('doc-chat-extraction-worker', dir)).to.deep.equal([longerPrefix]);
    expect(removeOrphanedTempDirs('doc-chat-extraction', dir)).to.deep.equal([]);
  });

  it('keeps the folder of a process that runs, also one this user may not signal (pid 1: init)', () => {
    const kept = folder('doc-chat-extraction-1-Uv12Wx');
    expect(removeOrphanedTempDirs('doc-chat-extraction', dir)).to.deep.equal([]);
    expect(fs.existsSync(kept)).to.equal(true);
  });

  it('answers with nothing for a temporary folder that cannot be read', () => {
    expect(removeOrphanedTempDirs('doc-chat-extraction', path.join(dir, 'missing'))).to.deep.equal([]);
  });

  it('makes a private folder named after this process', () => {
    const made = makeProcessTempDir('doc-chat-orphans-test');
    try {
      expect(path.basename(made)).to.match(new RegExp(`^doc-chat-orphans-test-${process.pid}-[A-Za-z0-9]{6}$`));
      expect(fs.statSync(made).mode & 0o777).to.equal(0o700);
    } finally {
      fs.rmSync(made, { recursive: true, force: true });
    }
  });
});
