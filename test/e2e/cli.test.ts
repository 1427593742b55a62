import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { signLocalToken } from '../../adapters/local-jwt/local-jwt-verifier.js';
import type { IngestJob } from '../../core/domain/model.js';
import type { IngestJobRepo } from '../../core/ports/ingest-job-repo.js';
import { CONFIG_VARIABLES } from '../../server/config.js';
import { TOKENS } from '../../server/container.js';
import { freePort } from '../support/free-port.js';
import { PAGE_BREAK, textPdf } from '../support/make-pdf.js';
import { REPO_ROOT } from '../support/paths.js';
import { startTestService, TEST_JWT_SECRET, type TestService } from '../support/test-service.js';

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `doc-chat` as a user runs it: a child process with pipes (not a terminal), so it prints plain lines. */
function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const fullEnv: NodeJS.ProcessEnv = { ...process.env, DOC_CHAT_URL: undefined, DOC_CHAT_TOKEN: undefined, ...env };
  for (const [name, value] of Object.entries(fullEnv)) if (value === undefined) delete fullEnv[name];
  return new Promise((resolve) => {
    // Asynchronous: the service answering it runs in this process.
    execFile(process.execPath, ['--import', 'tsx', 'server/cli/doc-chat.ts', ...args], { cwd: REPO_ROOT, env: fullEnv, timeout: 240_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

/** "965 B", "12.3 kB": a file's size as the client prints it (decimal units). */
function sizeOf(file: string): string {
  const { size } = fs.statSync(file);
  return size < 1000 ? `${size} B` : `${(size / 1000).toFixed(1)} kB`;
}

describe('doc-chat command-line client (against a real service, non-TTY output)', function () {
  this.timeout(240_000);
  let t: TestService;
  let env: Record<string, string>;
  let folder: string;

  before(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-docs-'));
    t = await startTestService();
    env = { DOC_CHAT_URL: t.baseUrl, DOC_CHAT_TOKEN: await signLocalToken(TEST_JWT_SECRET, 'cli-user') };
    const fees = await textPdf({
      title: 'Fee schedule',
      paragraphs: ['The monthly account fee is twelve dollars.', PAGE_BREAK, 'Wire transfers abroad cost forty-five dollars each.'],
    });
    const hours = await textPdf({ title: 'Opening hours', paragraphs: ['The branch opens at nine in the morning on weekdays.'] });
    fs.mkdirSync(path.join(folder, 'archive'));
    fs.writeFileSync(path.join(folder, 'fees.pdf'), fees.bytes);
    fs.writeFileSync(path.join(folder, 'archive', 'hours.PDF'), hours.bytes);
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'not a document');
    fs.writeFileSync(path.join(folder, '.hidden.pdf'), 'passed over');
  });
  after(async () => {
    await t?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  async function jobsOf(sessionLabel: string): Promise<IngestJob[]> {
    const sessions = await (await t.as('cli-user')).get('/api/v1/session/');
    const session = (sessions.body as { id: string; label: string }[]).find((s) => s.label === sessionLabel);
    expect(session, `session "${sessionLabel}"`).to.not.equal(undefined);
    return t.service.container.get<IngestJobRepo>(TOKENS.IngestJobRepo).listBySession(session!.id);
  }

  it('ingests a folder into a new session by label: one line per upload and per finished job, others skipped', async () => {
    const run = await runCli(['ingest', folder, '--session', 'Bank papers', '--tag', 'institution=acme'], env);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stderr).to.equal('');
    const jobs = await jobsOf('Bank papers');
    const sessionId = jobs[0].sessionId;
    const [feesJob, hoursJob] = ['fees.pdf', 'hours.PDF'].map((name) => jobs.find((j) => j.filename === name)!);
    const lines = run.stdout.split('\n');
    expect(lines.slice(0, 4)).to.deep.equal([
      'skipped notes.txt (only .pdf, .jpg and .jpeg files are ingested)',
      `created session "Bank papers" (${sessionId})`,
      `uploaded archive/hours.PDF (${sizeOf(path.join(folder, 'archive', 'hours.PDF'))})`,
      `uploaded fees.pdf (${sizeOf(path.join(folder, 'fees.pdf'))})`,
    ]);
    // Jobs are reported as they finish, in either order.
    expect(lines.slice(4, 6)).to.have.members([
      `archive/hours.PDF: completed, 1 page, ${hoursJob.chunks} chunk${hoursJob.chunks === 1 ? '' : 's'}`,
      `fees.pdf: completed, 2 pages, ${feesJob.chunks} chunk${feesJob.chunks === 1 ? '' : 's'}`,
    ]);
    expect(lines.slice(6)).to.deep.equal([`2 of 2 ingested into session "Bank papers" (${sessionId}), 1 skipped`, '']);
    expect(jobs.map((j) => [j.filename, j.status, j.tags])).to.have.deep.members([
      ['fees.pdf', 'completed', { institution: 'acme' }],
      ['hours.PDF', 'completed', { institution: 'acme' }],
    ]);
  });

  it('ingests into an existing session by id, and exits 1 when a document fails, naming the reason', async () => {
    const sessionId = await (await t.as('cli-user')).createSession('Mixed');
    const broken = path.join(folder, 'broken', 'scan.pdf');
    fs.mkdirSync(path.dirname(broken));
    fs.writeFileSync(broken, 'this is plain text, not a PDF');
    const empty = path.join(path.dirname(broken), 'empty.pdf');
    fs.writeFileSync(empty, '');
    try {
      const run = await runCli(['ingest', broken, empty, path.join(folder, 'fees.pdf'), '--session', sessionId], env);
      expect(run.code, run.stderr).to.equal(1);
      const lines = run.stdout.trim().split('\n');
      // Refused at the upload URL (the others are still uploaded), or failed by the ingestion job.
      expect(lines).to.include(`${empty}: not uploaded: contentSize must be a positive whole number of bytes`);
      expect(lines).to.include(`${broken}: failed: The file content is not a PDF although it was declared as application/pdf`);
      expect(lines.some((l) => l.startsWith(`${path.join(folder, 'fees.pdf')}: completed, 2 pages`)), run.stdout).to.equal(true);
      expect(lines.at(-1)).to.equal(`1 of 3 ingested into session "Mixed" (${sessionId}), 2 failed`);
      expect(run.stdout).to.not.include('created session');
      expect((await jobsOf('Mixed')).map((j) => j.status).sort()).to.deep.equal(['completed', 'failed']);
    } finally {
      fs.rmSync(path.dirname(broken), { recursive: true, force: true });
    }
  });

  it('ask prints the answer and its sources (file, page)', async () => {
    const run = await runCli(['ask', 'Bank papers', 'How much does a wire transfer abroad cost?'], env);
    expect(run.code, run.stderr).to.equal(0);
    // The answer lists the pages it quotes itself, numbered; the CLI does not list them again.
    const [answer, sources] = run.stdout.split('\nSources: ');
    expect(answer).to.match(/forty-five dollars/i);
    expect(sources.split('\n')[0]).to.match(/^\[1\] fees\.pdf, page 2(?:;|$)/);
    expect(run.stdout).to.not.include('\nSources:\n');
  });

  it('ask --document answers from the named documents only (by file name or id); an unknown one is an error', async () => {
    const question = 'How much does a wire transfer abroad cost?';
    const fees = await runCli(['ask', 'Bank papers', question, '--document', 'fees.pdf'], env);
    expect(fees.code, fees.stderr).to.equal(0);
    expect(fees.stdout.split('\nSources: ')[1].split('\n')[0]).to.include('fees.pdf, page 2');
    const hoursId = (await jobsOf('Bank papers')).find((j) => j.filename === 'hours.PDF')!.id;
    for (const hours of ['hours.PDF', hoursId]) {
      const run = await runCli(['ask', 'Bank papers', question, '--document', hours], env);
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stdout, hours).to.not.include('fees.pdf');
    }
    const unknown = await runCli(['ask', 'Bank papers', question, '--document', 'fees.pdf', '--document', 'nope.pdf'], env);
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.equal('error: unknown document: session "Bank papers" has no document with the id or file name "nope.pdf"\n');
  });

  it('one-line errors: unreachable server, refused token, missing path, unknown session (exit 1)', async () => {
    const port = await freePort();
    const cases: [string[], Record<string, string>, string][] = [
      [['ask', 'Bank papers', 'q?'], { ...env, DOC_CHAT_URL: `http://127.0.0.1:${port}` }, `error: cannot reach http://127.0.0.1:${port}: is the server running?\n`],
      [['--url', `http://127.0.0.1:${port}`, 'ingest', folder, '--session', 'x'], env, `error: cannot reach http://127.0.0.1:${port}: is the server running?\n`],
      [['ingest', folder, '--session', 'x'], { ...env, DOC_CHAT_TOKEN: 'not-a-token' }, 'error: the server refused the token (401 Unauthorized Access)\n'],
      [['--token', 'not-a-token', 'ask', 'Bank papers', 'q?'], env, 'error: the server refused the token (401 Unauthorized Access)\n'],
      [['ingest', path.join(folder, 'missing.pdf'), folder, '--session', 'x'], env, `error: no such file or folder: ${path.join(folder, 'missing.pdf')}\n`],
      [['ingest', path.join(folder, 'notes.txt'), '--session', 'x'], env, `error: no .pdf, .jpg or .jpeg file in ${path.join(folder, 'notes.txt')}\n`],
      [['ask', 'No such session', 'q?'], env, 'error: unknown session: no session has the id or label "No such session"\n'],
      [['ingest', folder, '--session', '00000000-0000-4000-8000-000000000000'], env, 'error: unknown session: no session has the id or label "00000000-0000-4000-8000-000000000000"\n'],
    ];
    for (const [args, runEnv, message] of cases) {
      const run = await runCli(args, runEnv);
      expect([run.code, run.stderr, run.stdout.includes('uploaded')], args.join(' ')).to.deep.equal([1, message, false]);
    }
    // Nothing was created by the refused or failed commands.
    const labels = ((await (await t.as('cli-user')).get('/api/v1/session/')).body as { label: string }[]).map((s) => s.label);
    expect(labels).to.not.include('x');
  });

  it('usage errors exit 2: a missing option or argument, no token, a --url that is not http(s)', async () => {
    const cases: [string[], Record<string, string | undefined>, RegExp][] = [
      [['ingest', folder], env, /^error: required option '--session <id\|label>' not specified\n$/],
      [['ask', 'Bank papers'], env, /^error: missing required argument 'question'\n$/],
      [['ask', 'Bank papers', 'q?'], { ...env, DOC_CHAT_TOKEN: undefined }, /^error: no token: pass --token or set DOC_CHAT_TOKEN/],
      [['--url', 'localhost:3000', 'ask', 'Bank papers', 'q?'], env, /^error: option '--url <url>' argument 'localhost:3000' is invalid\. must be an http/],
      [['token', 'alice', '--ttl', '1.5'], env, /--ttl must be a positive whole number of seconds/],
    ];
    for (const [args, runEnv, message] of cases) {
      const run = await runCli(args, runEnv);
      expect(run.code, args.join(' ')).to.equal(2);
      expect(run.stderr, args.join(' ')).to.match(message);
    }
  });

  it('serve starts the service, logs pino JSON lines on stdout, and stops on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-serve-'));
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/doc-chat.ts', 'serve'], {
      cwd: REPO_ROOT,
      // Only the settings given here: a developer's shell (OLLAMA_URL, LOG_LEVEL, ...) must not change the outcome.
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !(CONFIG_VARIABLES as readonly string[]).includes(name))),
        PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, AUTH_JWT_SECRET: TEST_JWT_SECRET,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr!.resume();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 60_000;
      while (!(await fetch(`http://127.0.0.1:${port}/api/v1/health`).then((r) => r.ok, () => false))) {
        expect(child.exitCode, stdout).to.equal(null);
        expect(Date.now(), 'service start').to.be.below(deadline);
        await new Promise((r) => setTimeout(r, 200));
      }
      child.kill('SIGTERM');
      expect(await exited).to.equal(0);
      const lines = stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(lines[0]).to.include({ level: 30, msg: 'doc-chat listening', role: 'all', port });
      expect(lines.at(-1)).to.include({ msg: 'shutting down', signal: 'SIGTERM' });
    } finally {
      child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('open prints the app’s address with a fresh token in the fragment, and opens it with xdg-open on a desktop', async () => {
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-open-'));
    try {
      // No desktop: printed only.
      const printed = await runCli(['open', '--user', 'erin'], { AUTH_JWT_SECRET: TEST_JWT_SECRET, PUBLIC_URL: t.baseUrl, DISPLAY: undefined, WAYLAND_DISPLAY: undefined });
      expect(printed.code, printed.stderr).to.equal(0);
      const url = printed.stdout.trim();
      const prefix = `${t.baseUrl}/#token=`;
      expect(url.startsWith(prefix), url).to.equal(true);
      const token = decodeURIComponent(url.slice(prefix.length));
      const res = await t.anonymous.withToken(token).post('/api/v1/session/', { label: 'opened' });
      expect(res.status).to.equal(201);
      expect(res.body.data.user_id).to.equal('erin');
      expect(printed.stderr).to.not.include('Opened');

      // A desktop: a stand-in xdg-open on PATH records what it was asked to open.
      const seen = path.join(bin, 'opened.txt');
      fs.writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${seen}'\n`, { mode: 0o755 });
      const opened = await runCli(['open', '--user', 'erin'], {
        AUTH_JWT_SECRET: TEST_JWT_SECRET, PUBLIC_URL: t.baseUrl, DISPLAY: ':0', PATH: `${bin}${path.delimiter}${process.env.PATH}`,
      });
      expect(opened.code, opened.stderr).to.equal(0);
      expect(opened.stderr).to.include('Opened in your browser.');
      for (let i = 0; i < 50 && !fs.existsSync(seen); i++) await new Promise((r) => setTimeout(r, 100));
      expect(fs.readFileSync(seen, 'utf8')).to.equal(opened.stdout.trim());
    } finally {
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });

  it('token prints a token the service accepts', async () => {
    const run = await runCli(['token', 'dora', '--ttl', '600'], { AUTH_JWT_SECRET: TEST_JWT_SECRET });
    expect(run.code, run.stderr).to.equal(0);
    const res = await t.anonymous.withToken(run.stdout.trim()).get('/api/v1/session/');
    expect(res.status).to.equal(200);
  });
});
