import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '../../server/config.js';
import { CHROMA_IMAGE, MINIO_IMAGE, OLLAMA_IMAGE } from '../support/container-images.js';
import { REPO_ROOT } from '../support/paths.js';

const read = (name: string) => fs.readFileSync(path.join(REPO_ROOT, name), 'utf8');

interface ComposeService {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
}

const compose = parse(read('docker-compose.yml')) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
const envExample = Object.fromEntries(
  read('.env.example')
    .split('\n')
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
);

/** Variables compose substitutes from .env: ${NAME:-default}, ${NAME:?message}, ${NAME}. */
function interpolated(text: string): Set<string> {
  return new Set([...text.matchAll(/\$\{([A-Z_][A-Z0-9_]*)(?::?[-?][^}]*)?\}/g)].map((m) => m[1]));
}

/** Resolves ${VAR:-default} with the given values, the way compose does. */
function substitute(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\{([A-Z_][A-Z0-9_]*)(?::([-?])([^}]*))?\}/g, (_, name: string, op: string | undefined, rest: string) => {
    const v = vars[name];
    if (v !== undefined && v !== '') return v;
    return op === '-' ? rest : '';
  });
}

describe('deployment files agree with the configuration', () => {
  const app = compose.services.app;

  it('the app service sets only variables the config reads', () => {
    const unknown = Object.keys(app.environment ?? {}).filter((k) => !(CONFIG_VARIABLES as readonly string[]).includes(k));
    expect(unknown).to.deep.equal([]);
  });

  it('the app service configures every production adapter, and the config accepts it', () => {
    const env = Object.fromEntries(Object.entries(app.environment!).map(([k, v]) => [k, substitute(String(v), envExample)]));
    for (const name of ['MINIO_ENDPOINT', 'CHROMA_URL', 'OLLAMA_URL']) expect(env[name], name).to.match(/^http:\/\//);
    const config = loadConfig(env);
    expect(config.blobs.kind).to.equal('minio');
    expect(config.index.kind).to.equal('chroma');
    expect(config.models.kind).to.equal('ollama');
    expect(config.auth.kind).to.equal('local');
  });

  it('every variable compose takes from .env is documented in .env.example, and .env.example holds nothing else', () => {
    const used = interpolated(read('docker-compose.yml'));
    expect([...used].filter((v) => !(v in envExample))).to.deep.equal([]);
    expect(Object.keys(envExample).filter((v) => !used.has(v))).to.deep.equal([]);
  });

  it('the app waits for healthy dependencies and the pulled models', () => {
    expect(app.build).to.not.equal(undefined);
    expect(app.depends_on).to.deep.equal({
      minio: { condition: 'service_healthy' },
      chroma: { condition: 'service_healthy' },
      'ollama-pull': { condition: 'service_completed_successfully' },
    });
    for (const name of ['app', 'minio', 'chroma', 'ollama']) expect(compose.services[name].healthcheck, name).to.not.equal(undefined);
    expect(Object.keys(compose.volumes).sort()).to.deep.equal(['app-data', 'chroma-data', 'minio-data', 'ollama-models']);
  });

  it('pins each dependency image to the tag its Testcontainers suite runs against', () => {
    const suites: [string, string, string, string[]][] = [
      ['MINIO_IMAGE', MINIO_IMAGE, 'test/integration/minio/blob-store.minio-testcontainers.test.ts', ['minio']],
      ['CHROMA_IMAGE', CHROMA_IMAGE, 'test/integration/chroma/vector-index.chroma-testcontainers.test.ts', ['chroma']],
      ['OLLAMA_IMAGE', OLLAMA_IMAGE, 'test/integration/ollama/ollama-testcontainers.test.ts', ['ollama', 'ollama-pull']],
    ];
    for (const [constant, image, suite, services] of suites) {
      // The suite takes its default image from the shared constant, so this is the tag it tests.
      expect(read(suite), suite).to.match(new RegExp(`\\?\\? ${constant};`));
      for (const service of services) expect(compose.services[service].image, service).to.equal(image);
    }
    // Chroma 1.x persists under /data and has no IS_PERSISTENT setting (that was 0.x, under /chroma/chroma).
    const chroma = compose.services.chroma;
    expect(CHROMA_IMAGE).to.match(/:1\./);
    expect(chroma.environment ?? {}).to.not.have.property('IS_PERSISTENT');
    expect(chroma.volumes).to.deep.equal(['chroma-data:/data']);
  });

  it('the Dockerfile is multi-stage and runs as a non-root user', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile.match(/^FROM /gm)).to.have.length.greaterThanOrEqual(2);
    const lastStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(lastStage).to.match(/^USER (?!root)\w+/m);
    expect(lastStage).to.not.match(/g\+\+|make/);
  });
});
