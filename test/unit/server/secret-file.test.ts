import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadOrCreateSecret } from '../../../adapters/system/secret-file.js';

describe('secret files', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-file-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates an owner-only secret the first time and reads the same one afterwards', () => {
    const file = path.join(dir, 'nested', 'jwt-secret');
    const secret = loadOrCreateSecret(file);
    expect(secret.length).to.be.at.least(32);
    expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).to.equal(0o700);
    expect(loadOrCreateSecret(file)).to.equal(secret);
  });

  it('narrows an existing secret file and its folder to owner-only', () => {
    const folder = path.join(dir, 'data');
    fs.mkdirSync(folder, { mode: 0o755 });
    fs.chmodSync(folder, 0o755);
    const file = path.join(folder, 'jwt-secret');
    fs.writeFileSync(file, `${'s'.repeat(40)}\n`, { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    expect(loadOrCreateSecret(file)).to.equal('s'.repeat(40));
    expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
    expect(fs.statSync(folder).mode & 0o777).to.equal(0o700);
  });

  it('uses an existing secret of 32 characters or more, trimmed', () => {
    const file = path.join(dir, 'jwt-secret');
    fs.writeFileSync(file, `${'s'.repeat(32)}\n`);
    expect(loadOrCreateSecret(file)).to.equal('s'.repeat(32));
  });

  it('refuses an existing secret shorter than 32 characters, naming the file and the minimum, and leaves it alone', () => {
    for (const content of ['short-secret\n', '', `${'s'.repeat(31)}\n`]) {
      const file = path.join(dir, 'jwt-secret');
      fs.writeFileSync(file, content);
      const error = (() => { try { loadOrCreateSecret(file); } catch (e) { return e as Error; } return expect.fail('accepted'); })();
      expect(error.message).to.include(file).and.include('at least 32');
      expect(fs.readFileSync(file, 'utf8')).to.equal(content);
    }
  });
});
