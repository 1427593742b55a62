import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { CONFIG_VARIABLES } from '../../server/config.js';
import { SERVICE_MALLOC_ENV } from '../../server/node-flags.js';
import { REPO_ROOT } from '../support/paths.js';

/**
 * The documentation a newcomer reads stays true to the tree: the README stays short, every relative link (and its
 * #anchor) resolves, every `npm run` script it names exists, and every setting it names is one the service reads.
 */

const README_MAX_LINES = 250;

/**
 * Link targets another branch of the same change adds (the configuration table generated from the schemas, the web
 * app's screenshots). An entry here whose file exists fails the test below: delete the entry once the file landed.
 */
const ADDED_BY_OTHER_BRANCHES: string[] = [];

/** Variables that are not the service's own: the CLI client's, the tests' and benchmarks', and compose's .env. */
const NOT_SERVICE_VARIABLES = new Set([
  'DOC_CHAT_URL', 'DOC_CHAT_TOKEN', 'DOC_CHAT_CORPUS',
  'BENCH_FINANCEBENCH_PART', 'BENCH_SQUAD', 'BENCH_QUESTIONS',
  'POSTGRES_PASSWORD', 'MINIO_ROOT_USER', 'MINIO_ROOT_PASSWORD', 'NODE_OPTIONS',
  // the object store container's (docker-compose.yml gives it S3_ACCESS_KEY and S3_SECRET_KEY under these names)
  'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY',
  // glibc's, which npm start and the image set for the service (server/node-flags.ts)
  ...Object.keys(SERVICE_MALLOC_ENV),
]);

function documents(): string[] {
  const docs = fs.readdirSync(path.join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');

/** The text outside fenced code blocks (a `# comment` in a shell block is no heading, `[i](x)` in code no link). */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```$/gm, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const headings = [...prose(read(file)).matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => anchorOf(m[1]));
  return new Set(headings);
}

function relativeLinks(file: string): string[] {
  return [...prose(read(file)).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^[a-z]+:/i.test(target));
}

/** Problems with one link of `file`: a missing file or a missing #anchor. */
function linkProblem(file: string, target: string): string | undefined {
  const [filePart, anchor] = target.split('#');
  const resolved = filePart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), filePart));
  if (ADDED_BY_OTHER_BRANCHES.includes(resolved)) return undefined;
  if (!fs.existsSync(path.join(REPO_ROOT, resolved))) return `${file}: ${target} (no file ${resolved})`;
  if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) return `${file}: ${target} (no heading #${anchor} in ${resolved})`;
  return undefined;
}

describe('documentation', () => {
  it(`README.md is at most ${README_MAX_LINES} lines`, () => {
    const lines = read('README.md').split('\n').length;
    expect(lines).to.be.at.most(README_MAX_LINES);
  });

  it('every relative link in README.md and docs/*.md names a file (and heading) that exists', () => {
    const problems = documents().flatMap((file) => relativeLinks(file).map((target) => linkProblem(file, target)));
    expect(problems.filter(Boolean)).to.deep.equal([]);
  });

  it('the links expected from other branches are still missing (delete an entry once its file exists)', () => {
    expect(ADDED_BY_OTHER_BRANCHES.filter((f) => fs.existsSync(path.join(REPO_ROOT, f)))).to.deep.equal([]);
  });

  it('every `npm run` script the documents name is in package.json', () => {
    const scripts = Object.keys(JSON.parse(read('package.json')).scripts as Record<string, string>);
    const named = documents().flatMap((file) => [...read(file).matchAll(/npm run (?:-s )?([\w:.-]+)/g)].map((m) => `${file}: ${m[1]}`));
    expect(named.length).to.be.greaterThan(3);
    expect(named.filter((entry) => !scripts.includes(entry.split(': ')[1]))).to.deep.equal([]);
  });

  it('every setting named in README.md, operations.md and security.md is one the service reads', () => {
    const known = new Set<string>([...CONFIG_VARIABLES, ...NOT_SERVICE_VARIABLES]);
    const unknown = ['README.md', 'docs/operations.md', 'docs/security.md'].flatMap((file) =>
      [...read(file).matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?:=[^`]*)?`/g)]
        .map((m) => m[1])
        .filter((name) => !known.has(name))
        .map((name) => `${file}: ${name}`),
    );
    expect(unknown).to.deep.equal([]);
  });

  it('the anchor rule matches GitHub on the headings these documents use', () => {
    expect(anchorOf('Upload limits and their settings')).to.equal('upload-limits-and-their-settings');
    expect(anchorOf('What S3 presigned URLs can and cannot enforce')).to.equal('what-s3-presigned-urls-can-and-cannot-enforce');
    expect(anchorOf('Search and throughput (issue 10)')).to.equal('search-and-throughput-issue-10');
    expect(anchorOf('Embedding it in your program')).to.equal('embedding-it-in-your-program');
  });
});
