import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { freePort } from '../support/free-port.js';
import { PAGE_BREAK, textPdf } from '../support/make-pdf.js';
import { REPO_ROOT } from '../support/paths.js';

const execFileAsync = promisify(execFile);

/** execFile, failing with the child's stderr in the message (a bare "Command failed" explains nothing). */
async function run(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  try {
    return await execFileAsync(file, args, { ...options, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const failed = error as Error & { stderr?: string; stdout?: string };
    throw new Error(`${failed.message}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`);
  }
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Children run as plain node: nothing of this test's tsx loader may leak into them through the environment. */
function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.NODE_OPTIONS;
  return env;
}

/**
 * A project outside the repository with the packed tarball installed, the way another program would use doc-chat.
 * Installing the tarball's dependencies from scratch would rebuild better-sqlite3 natively (over a minute, and its
 * prebuilt binaries come from outside the npm registry), so the repository's node_modules is copied in first —
 * hard links where the file system allows, an ordinary copy elsewhere — without npm's hidden lockfile (a hard-linked
 * one would be rewritten in place, i.e. in the repository). npm then installs only the tarball, offline when its
 * cache allows, with --omit=dev: it removes every package doc-chat does not depend on (tsx, typescript, mocha...),
 * so the programs below prove that the production dependencies are enough. --ignore-scripts: the copied native
 * modules are already built, and the tarball itself has no install script.
 */
async function installPackedProject(root: string): Promise<string> {
  const { stdout } = await run(npm, ['pack', '--pack-destination', root, '--silent'], { cwd: REPO_ROOT, env: plainEnv() });
  const tarball = path.join(root, stdout.trim().split('\n').at(-1)!);
  const project = path.join(root, 'app');
  fs.mkdirSync(project);
  // mocha and chai: the optional peer dependencies of doc-chat/testing, which this project uses for its own adapter.
  const { devDependencies } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  const dependencies = { mocha: devDependencies.mocha, chai: devDependencies.chai };
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'embedding-app', private: true, type: 'module', dependencies }));
  const modules = path.join(project, 'node_modules');
  try {
    await run('cp', ['-al', path.join(REPO_ROOT, 'node_modules'), modules]);
  } catch {
    fs.rmSync(modules, { recursive: true, force: true });
    fs.cpSync(path.join(REPO_ROOT, 'node_modules'), modules, { recursive: true, verbatimSymlinks: true });
  }
  fs.rmSync(path.join(modules, '.package-lock.json'), { force: true });
  await run(npm, ['install', tarball, '--prefer-offline', '--omit=dev', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: project,
    env: plainEnv(),
  });
  return project;
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

describe('the package from its tarball, installed into another project and run with plain node', function () {
  let root: string;
  let project: string;

  before(async function () {
    this.timeout(240_000); // npm pack builds dist/ (tsc) first
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-package-'));
    project = await installPackedProject(root);
  });
  after(() => {
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('installs no TypeScript runner: tsx and typescript are development dependencies only', () => {
    const installed = (name: string) => fs.existsSync(path.join(project, 'node_modules', name, 'package.json'));
    expect(installed('doc-chat')).to.equal(true);
    expect(installed('tsx')).to.equal(false);
    expect(installed('typescript')).to.equal(false);
    expect(installed('better-sqlite3')).to.equal(true);
  });

  it('runs examples/embed.mjs, the README\'s program: ingests a PDF, answers a question with its source page', async function () {
    this.timeout(120_000);
    const program = fs.readFileSync(path.join(REPO_ROOT, 'examples/embed.mjs'), 'utf8');
    expect(fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8'), 'README "Embedding" shows the program').to.include(program);
    fs.writeFileSync(path.join(project, 'embed.mjs'), program);
    const { bytes } = await textPdf({
      title: 'Velmora harbour notes',
      paragraphs: [
        'The harbour bridge of Velmora was opened in 1931 by Mayor Ilse Drachten after six years of work.',
        'Fishing boats leave before dawn and return to the northern quay in the afternoon.',
        PAGE_BREAK,
        'The lighthouse keeper of Velmora feeds seventeen cats every morning before climbing the tower.',
        'The lamp was converted from oil to electricity in 1958.',
      ],
    });
    fs.writeFileSync(path.join(project, 'velmora-notes.pdf'), bytes);

    const { stdout } = await run(process.execPath, ['embed.mjs', 'velmora-notes.pdf', 'How many cats does the lighthouse keeper feed?', 'data'], {
      cwd: project,
      env: plainEnv(),
    });
    const lines = stdout.trim().split('\n');
    expect(lines[0]).to.equal('ingested velmora-notes.pdf: 2 pages, 2 chunks');
    const answer = lines.find((line) => line.startsWith('answer: '));
    expect(answer).to.include('seventeen cats');
    const sources = lines.filter((line) => line.startsWith('source: '));
    expect(sources).to.have.length.greaterThan(0);
    expect(sources[0]).to.match(/^source: velmora-notes\.pdf page 2: .*seventeen cats/);
    // The records are in the program's SQLite file, the upload under its blob directory.
    expect(fs.existsSync(path.join(project, 'data', 'doc-chat.sqlite'))).to.equal(true);
  });

  it('type-checks a TypeScript program against every entry\'s declarations (skipLibCheck off)', async function () {
    this.timeout(120_000);
    const entries = Object.keys((JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { exports: object }).exports)
      .filter((entry) => entry !== './package.json')
      .map((entry) => entry.replace(/^\./, 'doc-chat'));
    const program = [
      "import { createDocChat, type DocChatPorts, type Llm } from 'doc-chat';",
      "import { openSqliteDatabase, SqliteFtsIndex } from 'doc-chat/adapters/sqlite';",
      "import { createServer, limitHeapGrowth, loadConfig, type RunningService } from 'doc-chat/server';",
      ...entries.map((entry, i) => `import * as entry${i} from '${entry}';`),
      "const ports: Pick<DocChatPorts, 'indexes'> = { indexes: [new SqliteFtsIndex(openSqliteDatabase(':memory:'))] };",
      'const llm: Llm | undefined = undefined;',
      'const started: Promise<RunningService> = createServer(loadConfig({})).start();',
      `console.log(createDocChat, ports, llm, started, limitHeapGrowth, ${entries.map((_, i) => `entry${i}`).join(', ')});`,
    ].join('\n');
    fs.writeFileSync(path.join(project, 'typed.ts'), program);
    const compilerOptions = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] };
    fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['typed.ts'] }));
    // The repository's compiler: the project itself has no TypeScript installed (a development dependency).
    const tsc = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
    await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project, env: plainEnv() });
  });

  it('lets an outside adapter run the port contract suites from doc-chat/testing under mocha', async function () {
    this.timeout(120_000);
    // The package's SQLite adapters stand in for the outside ones, through the public entries only.
    fs.writeFileSync(
      path.join(project, 'contracts.test.mjs'),
      [
        "import { KyselyChatRepo, KyselyIngestJobRepo, KyselySessionRepo } from 'doc-chat/adapters/kysely';",
        "import { openSqliteDatabase, SqliteFtsIndex, SqliteSessionEraser, SqliteUploadRepo } from 'doc-chat/adapters/sqlite';",
        "import { repoContract, vectorIndexContract } from 'doc-chat/testing';",
        '',
        "repoContract('my repositories', async () => {",
        "  const database = openSqliteDatabase(':memory:');",
        '  const { db } = database;',
        '  return {',
        '    sessions: new KyselySessionRepo(db), chats: new KyselyChatRepo(db), jobs: new KyselyIngestJobRepo(db),',
        '    uploads: new SqliteUploadRepo(database), eraser: new SqliteSessionEraser(database),',
        "    breakEraser: () => {",
        "      database.raw.exec(\"CREATE TEMP TRIGGER break_eraser BEFORE DELETE ON ingest_jobs BEGIN SELECT RAISE(FAIL, 'injected'); END\");",
        "      return () => database.raw.exec('DROP TRIGGER break_eraser');",
        '    },',
        '    cleanup: () => database.close(),',
        '  };',
        '});',
        "vectorIndexContract('my index', async () => {",
        "  const database = openSqliteDatabase(':memory:');",
        '  return { index: new SqliteFtsIndex(database), cleanup: () => database.close() };',
        '});',
      ].join('\n'),
    );
    const mocha = path.join(project, 'node_modules/mocha/bin/mocha.js');
    const { stdout } = await run(process.execPath, [mocha, '--reporter', 'json', 'contracts.test.mjs'], { cwd: project, env: plainEnv() });
    const report = JSON.parse(stdout) as { stats: { passes: number; failures: number; pending: number }; passes: { fullTitle: string }[] };
    expect(report.stats.failures).to.equal(0);
    expect(report.stats.pending).to.equal(0);
    const titles = report.passes.map((test) => test.fullTitle);
    expect(titles.filter((title) => title.startsWith('repository contract: my repositories'))).to.have.length.greaterThan(5);
    expect(titles.filter((title) => title.startsWith('VectorIndex contract: my index'))).to.have.length.greaterThan(5);
  });

  it('serves the API from node dist/server/main.js: health, a refused anonymous call, an authenticated one', async function () {
    this.timeout(60_000);
    const packageDir = path.join(project, 'node_modules', 'doc-chat');
    const dataDir = path.join(root, 'server-data');
    const port = await freePort();
    const env = plainEnv({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}` });
    const server = spawn(process.execPath, [path.join(packageDir, 'dist/server/main.js')], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    server.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    try {
      const base = `http://127.0.0.1:${port}/api/v1`;
      const deadline = Date.now() + 30_000;
      let health: Response | undefined;
      while (!health) {
        if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}: ${output}`);
        if (Date.now() > deadline) throw new Error(`the server did not answer /health: ${output}`);
        health = await fetch(`${base}/health`).catch(() => undefined);
        if (!health) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(health.status).to.equal(200);
      expect((await fetch(`${base}/session/`)).status).to.equal(401);

      // The compiled token command signs with the secret the server generated in DATA_DIR.
      const { stdout: token } = await run(process.execPath, [path.join(packageDir, 'dist/server/cli/token.js'), 'alice'], { cwd: project, env });
      const auth = { authorization: `Bearer ${token.trim()}`, 'content-type': 'application/json' };
      const created = await fetch(`${base}/session/`, { method: 'POST', headers: auth, body: JSON.stringify({ label: 'From the package' }) });
      expect(created.status).to.equal(201);
      const listed = await fetch(`${base}/session/`, { headers: auth });
      expect(listed.status).to.equal(200);
      expect(((await listed.json()) as { label: string }[]).map((s) => s.label)).to.deep.equal(['From the package']);
    } finally {
      await stopProcess(server);
    }
  });
});
