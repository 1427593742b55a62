import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { limitHeapGrowth, SERVICE_NODE_FLAGS } from '../../../server/node-flags.js';
import { REPO_ROOT } from '../../support/paths.js';

/**
 * Ingestion's pattern in miniature, in a process of its own started as the service is: batches of objects that live
 * long enough to be promoted to the old generation, then die, next to ~25 MB that stay. Prints the highest V8 heap
 * seen, with or without limitHeapGrowth() called first.
 */
function peakHeapMb(limit: boolean, extraFlags: string[] = []): { peakMb: number; applied: boolean | null } {
  const script = [
    "import { limitHeapGrowth } from './server/node-flags.ts';",
    `const applied = ${limit} ? limitHeapGrowth() : null;`,
    "const live = Array.from({ length: 20_000 }, (_, i) => 'x'.repeat(1_000) + i);",
    'let batch = [];',
    'let peak = 0;',
    'for (let i = 0; i < 3_000_000; i++) {',
    "  batch.push({ text: 'y'.repeat(200) + i });",
    '  if (batch.length > 60_000) batch = [];',
    '  if (i % 1_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);',
    '}',
    'console.log(JSON.stringify({ peakMb: Math.round(peak / 1048576), applied, live: live.length }));',
  ].join('\n');
  const run = spawnSync(process.execPath, [...SERVICE_NODE_FLAGS, ...extraFlags, '--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 50_000 });
  expect(run.stderr).to.equal('');
  return JSON.parse(run.stdout) as { peakMb: number; applied: boolean | null };
}

describe('limitHeapGrowth (the service lets its old generation grow ×1.5 between full collections)', () => {
  it('keeps a heap full of promoted garbage far smaller than V8 alone does', function () {
    this.timeout(60_000);
    // Collected on the main thread only, so the peaks do not depend on when a GC helper thread gets a CPU: under CI's
    // other suites one run with concurrent marking peaked at 94 MB with the limit against 131 MB without.
    const unlimited = peakHeapMb(false, ['--single-threaded-gc']);
    const limited = peakHeapMb(true, ['--single-threaded-gc']);
    expect(limited.applied).to.equal(true);
    // Measured on Node 24: 389-525 MB without, 111-116 MB with, idle or with two CPU-bound processes beside.
    expect(limited.peakMb, `peak heap ${limited.peakMb} MB against ${unlimited.peakMb} MB without`).to.be.below(unlimited.peakMb * 0.5);
  });

  it('leaves a --heap-growing-percent given on the command line as it is', () => {
    expect(limitHeapGrowth(['--max-semi-space-size=8', '--heap-growing-percent=300'])).to.equal(false);
    expect(peakHeapMb(true, ['--heap-growing-percent=300']).applied).to.equal(false);
  });
});
