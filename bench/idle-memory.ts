/**
 * Idle memory of the service as production runs it: compiles dist/ (tsc, incremental), starts
 * `node dist/server/main.js` (with the service's Node options, as `npm start` runs it) on an empty temporary DATA_DIR with the embedded defaults, waits for /api/v1/health,
 * then samples the resident memory of the whole process tree (the server and any child it started) for a few
 * seconds, with no document ingested. Prints the highest sample.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONFIG_VARIABLES } from '../server/config.js';
import { freePort } from '../test/support/free-port.js';
import { REPO_ROOT } from '../test/support/paths.js';
import { buildDist, COMPILED_SERVER_ARGS, compiledServerEnv } from './compiled-server.js';
import { percentile } from './metrics.js';
import { processTree } from './process-tree.js';

const TARGET_MB = 150;
const SETTLE_MS = 1_000;
const SAMPLE_MS = 5_000;
const SAMPLE_EVERY_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  buildDist();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-idle-'));
  const port = await freePort();
  // Embedded defaults whatever the shell sets, and plain node: no loader flags inherited from this process.
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [...CONFIG_VARIABLES, 'NODE_OPTIONS']) delete env[name];
  Object.assign(env, { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir });
  const server = spawn(process.execPath, COMPILED_SERVER_ARGS, { cwd: REPO_ROOT, env: compiledServerEnv(env), stdio: ['ignore', 'ignore', 'pipe'] });
  let log = ''; // the server's log, shown only when it fails
  server.stderr!.on('data', (chunk: Buffer) => (log += chunk));
  try {
    const deadline = Date.now() + 30_000;
    while (!(await fetch(`http://127.0.0.1:${port}/api/v1/health`).then((r) => r.ok, () => false))) {
      if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}:\n${log}`);
      if (Date.now() > deadline) throw new Error(`the server did not answer /api/v1/health within 30 s:\n${log}`);
      await sleep(100);
    }
    await sleep(SETTLE_MS);
    const samples: number[] = [];
    let processes = 0;
    for (const end = Date.now() + SAMPLE_MS; Date.now() < end; await sleep(SAMPLE_EVERY_MS)) {
      const tree = processTree(server.pid!);
      samples.push(tree.rssBytes / 1024 / 1024);
      processes = Math.max(processes, tree.pids.length);
    }
    const peak = Math.max(...samples);
    console.log(`\nidle memory (node ${COMPILED_SERVER_ARGS.join(' ')}, embedded defaults, no document)`);
    console.log(`  processes in the tree: ${processes}; median ${percentile(samples, 50).toFixed(0)} MB over ${samples.length} samples`);
    console.log(`idle RSS: ${peak.toFixed(0)} MB (target ≤ ${TARGET_MB} MB) ${peak <= TARGET_MB ? 'met' : 'NOT met'}`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => (server.exitCode !== null ? resolve(undefined) : server.once('exit', resolve)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
