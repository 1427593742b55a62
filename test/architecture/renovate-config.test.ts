import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { CHROMA_IMAGE, OBJECT_STORE_IMAGE, OLLAMA_IMAGE, POSTGRES_IMAGE } from '../support/container-images.js';
import { REPO_ROOT } from '../support/paths.js';

interface PackageRule {
  matchPackageNames?: string[];
  matchDatasources?: string[];
  matchUpdateTypes?: string[];
  enabled?: boolean;
  pinDigests?: boolean;
  allowedVersions?: string;
}
interface RenovateConfig {
  customManagers: { managerFilePatterns: string[]; matchStrings: string[]; autoReplaceStringTemplate: string }[];
  packageRules: PackageRule[];
  automerge?: boolean;
}

const read = (name: string) => fs.readFileSync(path.join(REPO_ROOT, name), 'utf8');
const config = JSON.parse(read('renovate.json')) as RenovateConfig;
const rulesFor = (name: string) => config.packageRules.filter((rule) => rule.matchPackageNames?.includes(name));

/**
 * What renovate.json promises, checked where it can be without renovate itself (its validator passed it:
 * `npx --package renovate renovate-config-validator --strict`): the suites' images are found and bumped with the
 * compose file's, digests are pinned, and the pins the project depends on hold.
 */
describe('renovate.json', () => {
  it('finds every image of test/support/container-images.ts, as the compose file names it', () => {
    const [manager] = config.customManagers;
    const filePattern = manager.managerFilePatterns[0].replace(/^\/|\/$/g, '');
    expect(new RegExp(filePattern).test('test/support/container-images.ts')).to.equal(true);
    const source = read('test/support/container-images.ts');
    const found = [...source.matchAll(new RegExp(manager.matchStrings[0], 'g'))].map((m) => {
      const { depName, currentValue, currentDigest } = m.groups!;
      return `${depName}:${currentValue}${currentDigest ? `@${currentDigest}` : ''}`;
    });
    expect(found.sort()).to.deep.equal([OBJECT_STORE_IMAGE, CHROMA_IMAGE, OLLAMA_IMAGE, POSTGRES_IMAGE].sort());
    // A pinned digest is written back after the tag, inside the same quotes.
    expect(manager.autoReplaceStringTemplate).to.equal("'{{{depName}}}:{{{newValue}}}{{#if newDigest}}@{{{newDigest}}}{{/if}}'");
  });

  it('pins container digests, proposes no merge on its own, and keeps the pins the project depends on', () => {
    expect(config.automerge).to.equal(false);
    expect(config.packageRules.some((rule) => rule.matchDatasources?.includes('docker') && rule.pinDigests === true && !rule.matchPackageNames)).to.equal(true);
    expect(rulesFor('chromadb-js-bindings-linux-x64-gnu').map((rule) => rule.enabled)).to.deep.equal([false]);
    expect(rulesFor('typescript').map((rule) => rule.allowedVersions)).to.deep.equal(['5.9.x']);
    expect(rulesFor('chromadb/chroma').map((rule) => rule.allowedVersions)).to.deep.equal(['<2']);
    // A new PostgreSQL major needs a dump and restore of the volume.
    expect(rulesFor('postgres').some((rule) => rule.matchUpdateTypes?.includes('major') && rule.enabled === false)).to.equal(true);
    // The pins renovate must leave alone are the ones package.json holds.
    const manifest = JSON.parse(read('package.json')) as { overrides: Record<string, string>; devDependencies: Record<string, string> };
    expect(manifest.overrides).to.have.property('chromadb-js-bindings-linux-x64-gnu');
    expect(manifest.devDependencies.typescript).to.match(/^5\.9\./);
  });
});
