import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { expect } from 'chai';
import { InsufficientStorageError, OUT_OF_DISK_SPACE } from '../../../core/domain/errors.js';
import { DiskSpace, HELD_FILE, isStorageExhausted } from '../../../adapters/system/disk-space.js';
import { RecordingLogger } from '../../fakes/fixed-clock-and-ids.js';

const MB = 2 ** 20;
const rejection = (p: Promise<unknown>) => p.then(() => expect.fail('expected a rejection'), (e: unknown) => e);

describe('DiskSpace: the free space of DATA_DIR and the part held back', () => {
  let dir: string;
  let free: number;
  let looks: number;
  const logger = new RecordingLogger();
  const space = (options: { cacheMs?: number; reserveBytes?: number } = {}) =>
    new DiskSpace({
      directory: dir, reserveBytes: options.reserveBytes ?? 8 * MB, logger, cacheMs: options.cacheMs ?? 0,
      freeBytes: async () => (looks++, free),
    });
  const heldSize = () => (fs.existsSync(path.join(dir, HELD_FILE)) ? fs.statSync(path.join(dir, HELD_FILE)).size : 0);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-disk-space-'));
    free = 100 * MB;
    looks = 0;
    logger.lines.length = 0;
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('holds an eighth of the reserve in a file of incompressible bytes, owner-only', async () => {
    await space().init();
    expect(heldSize()).to.equal(MB);
    const bytes = fs.readFileSync(path.join(dir, HELD_FILE));
    expect(new Set(bytes.subarray(0, 4096)).size).to.be.greaterThan(200);
    expect(fs.statSync(path.join(dir, HELD_FILE)).mode & 0o777).to.equal(0o600);
    expect(fs.readdirSync(dir)).to.deep.equal([HELD_FILE]);
  });

  it('refuses new work below the reserve (the held file counted as free), says so once in the log, and accepts again above it', async () => {
    const watched = space();
    await watched.init();
    free = 7 * MB; // + 1 MB held: exactly the reserve
    await watched.ensureRoom();
    free = 7 * MB - 1;
    const error = await rejection(watched.ensureRoom());
    expect(error).to.be.instanceOf(InsufficientStorageError).and.include({ code: 'INSUFFICIENT_STORAGE', message: OUT_OF_DISK_SPACE });
    await rejection(watched.ensureRoom());
    expect(logger.lines.filter((l) => l.level === 'warn' && /out of disk space/.test(l.message))).to.have.length(1);
    free = 50 * MB;
    await watched.ensureRoom();
    expect(logger.lines.some((l) => l.level === 'info' && /back above the reserve/.test(l.message))).to.equal(true);
  });

  it('releases the held file an eighth at a time, then has nothing more to give', async () => {
    const watched = space();
    await watched.init();
    for (let step = 1; step <= 8; step++) {
      expect(await watched.release()).to.equal(true);
      expect(heldSize()).to.equal(MB - step * (MB / 8));
    }
    expect(fs.existsSync(path.join(dir, HELD_FILE))).to.equal(false);
    expect(await watched.release()).to.equal(false);
  });

  it('holds the released space again once free space allows it, not before', async () => {
    const watched = space();
    await watched.init();
    await watched.release();
    await watched.release();
    free = 7.25 * MB; // room for new work (with 0.75 MB held), not enough to hold back more without going below the reserve
    await watched.ensureRoom();
    await watched.settled();
    expect(heldSize()).to.equal(MB * 0.75);
    free = 8 * MB;
    await watched.ensureRoom();
    await watched.settled();
    expect(heldSize()).to.equal(MB);
    expect(fs.readdirSync(dir)).to.deep.equal([HELD_FILE]);
  });

  it('holds nothing at start when the disk has less than the reserve free, and refuses new work', async () => {
    free = 2 * MB;
    const watched = space();
    await watched.init();
    expect(heldSize()).to.equal(0);
    await rejection(watched.ensureRoom());
    expect(await watched.release()).to.equal(false);
  });

  it('counts a held file an earlier run left; with a reserve of 0 it refuses nothing, holds nothing and gives that file back', async () => {
    await space().init();
    const again = space();
    await again.init();
    expect(heldSize()).to.equal(MB);
    expect(await again.release()).to.equal(true);
    free = 0;
    const unwatched = space({ reserveBytes: 0 });
    await unwatched.init();
    await unwatched.ensureRoom();
    expect(heldSize()).to.equal(0);
    expect(await unwatched.release()).to.equal(false);
  });

  it('looks at the file system at most once per cacheMs', async () => {
    const watched = space({ cacheMs: 60_000 });
    await watched.init();
    await watched.ensureRoom(); // the held file just written changed the free space: looked at again once
    const before = looks;
    for (let i = 0; i < 5; i++) await watched.ensureRoom();
    expect(looks).to.equal(before);
  });

  it('reads the real free space of the directory with statfs', async () => {
    const real = new DiskSpace({ directory: dir, reserveBytes: 1 });
    await real.init();
    await real.ensureRoom();
    const huge = new DiskSpace({ directory: dir, reserveBytes: Number.MAX_SAFE_INTEGER, heldBytes: 0 });
    await huge.init();
    await rejection(huge.ensureRoom());
  });

  it('asks the stores to give back what they keep only while free space is below the reserve, and logs a failure', async () => {
    let asked = 0;
    const watched = new DiskSpace({
      directory: dir, reserveBytes: 8 * MB, logger, cacheMs: 0, freeBytes: async () => free,
      reclaim: async () => {
        asked++;
        if (asked === 2) throw new Error('locked');
      },
    });
    await watched.init();
    await watched.reclaim();
    expect(asked, 'with room to spare').to.equal(0);
    free = MB;
    await watched.reclaim();
    expect(asked).to.equal(1);
    await watched.reclaim(); // throws inside: logged, not thrown
    expect(asked).to.equal(2);
    expect(logger.lines.some((l) => l.level === 'warn' && /could not give back/.test(l.message))).to.equal(true);
  });
});

describe('isStorageExhausted', () => {
  it('knows a full disk, a full SQLite database and PostgreSQL’s disk_full, also as the cause of another error', () => {
    const db = new BetterSqlite3(':memory:');
    db.exec('CREATE TABLE t (x BLOB)');
    db.pragma('max_page_count = 8');
    let full: unknown;
    try {
      for (let i = 0; i < 100; i++) db.prepare('INSERT INTO t VALUES (zeroblob(4000))').run();
    } catch (error) {
      full = error;
    } finally {
      db.close();
    }
    expect(full).to.have.property('code', 'SQLITE_FULL');
    expect(isStorageExhausted(full)).to.equal(true);
    expect(isStorageExhausted(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }))).to.equal(true);
    expect(isStorageExhausted(Object.assign(new Error('could not extend file'), { code: '53100' }))).to.equal(true);
    expect(isStorageExhausted(new Error('Writing chunks failed', { cause: full }))).to.equal(true);
  });

  it('knows nothing else for it', () => {
    expect(isStorageExhausted(new Error('database is locked'))).to.equal(false);
    expect(isStorageExhausted(Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' }))).to.equal(false);
    expect(isStorageExhausted('ENOSPC')).to.equal(false);
    expect(isStorageExhausted(null)).to.equal(false);
  });
});
