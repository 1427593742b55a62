import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '../../server/config.js';
import { CHROMA_IMAGE, MINIO_IMAGE, OLLAMA_IMAGE, POSTGRES_IMAGE } from '../support/container-images.js';
import { REPO_ROOT } from '../support/paths.js';

const read = (name: string) => fs.readFileSync(path.join(REPO_ROOT, name), 'utf8');

interface ComposeService {
  image?: string;
  build?: unknown;
  ports?: string[];
  container_name?: string;
  pull_policy?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
}

// `<<:` merge keys: the app and the worker share one environment block, as compose reads it.
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
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

  /** A service's environment as the app would see it with .env.example's values. */
  const resolvedEnv = (service: ComposeService) =>
    Object.fromEntries(Object.entries(service.environment!).map(([k, v]) => [k, substitute(String(v), envExample)]));

  it('the app and worker services set only variables the config reads', () => {
    for (const name of ['app', 'worker']) {
      const unknown = Object.keys(compose.services[name].environment ?? {}).filter((k) => !(CONFIG_VARIABLES as readonly string[]).includes(k));
      expect(unknown, name).to.deep.equal([]);
    }
  });

  it('the app service configures every production adapter and PostgreSQL, and the config accepts it', () => {
    const env = resolvedEnv(app);
    for (const name of ['MINIO_ENDPOINT', 'CHROMA_URL', 'OLLAMA_URL']) expect(env[name], name).to.match(/^http:\/\//);
    // The secret is required in this mode; .env.example leaves it for the operator to fill in.
    const config = loadConfig({ ...env, AUTH_JWT_SECRET: 'a-secret-the-operator-puts-in-env-0123' });
    expect(config.blobs.kind).to.equal('minio');
    expect(config.index.kind).to.equal('chroma');
    expect(config.models.kind).to.equal('ollama');
    expect(config.auth.kind).to.equal('local');
    expect(config.records.kind).to.equal('postgres');
    expect(config.role).to.equal('serve');
    expect(new URL(env.DATABASE_URL).host).to.equal('postgres:5432');
  });

  it('the worker runs the app image on the same database and storage, scales, and has no port', () => {
    const worker = compose.services.worker;
    expect(worker.image).to.equal(app.image).and.to.be.a('string');
    // Built by the app service, never pulled from a registry under that name.
    expect(worker.build).to.equal(undefined);
    expect(worker.pull_policy).to.equal('never');
    // `--scale worker=N` needs no fixed name and no published host port.
    expect(worker.ports).to.equal(undefined);
    expect(worker.container_name).to.equal(undefined);
    const env = resolvedEnv(worker);
    const appEnv = resolvedEnv(app);
    for (const name of ['DATABASE_URL', 'AUTH_JWT_SECRET', 'MINIO_ENDPOINT', 'MINIO_BUCKET', 'CHROMA_URL', 'CHROMA_COLLECTION', 'OLLAMA_URL']) {
      expect(env[name], name).to.equal(appEnv[name]);
    }
    const config = loadConfig({ ...env, AUTH_JWT_SECRET: 'a-secret-the-operator-puts-in-env-0123' });
    expect(config.role).to.equal('worker');
    expect(config.records.kind).to.equal('postgres');
    // Its metrics port stays inside the compose network, and its health check asks it.
    expect(config.metrics.port).to.be.a('number');
    expect(JSON.stringify(worker.healthcheck)).to.include(`:${config.metrics.port}/metrics`);
  });

  it('AUTH_JWT_SECRET and the database password must come from .env', () => {
    const text = read('docker-compose.yml');
    expect(text).to.match(/AUTH_JWT_SECRET: \$\{AUTH_JWT_SECRET:\?/);
    expect(text).to.match(/POSTGRES_PASSWORD: \$\{POSTGRES_PASSWORD:\?/);
  });

  it('every variable compose takes from .env is documented in .env.example, and .env.example holds nothing else', () => {
    const used = interpolated(read('docker-compose.yml'));
    expect([...used].filter((v) => !(v in envExample))).to.deep.equal([]);
    expect(Object.keys(envExample).filter((v) => !used.has(v))).to.deep.equal([]);
  });

  it('the app waits for healthy dependencies and the pulled models', () => {
    expect(app.build).to.not.equal(undefined);
    expect(app.depends_on).to.deep.equal({
      postgres: { condition: 'service_healthy' },
      minio: { condition: 'service_healthy' },
      chroma: { condition: 'service_healthy' },
      'ollama-pull': { condition: 'service_completed_successfully' },
    });
    expect(compose.services.worker.depends_on).to.deep.equal({ app: { condition: 'service_healthy' } });
    for (const name of ['app', 'worker', 'postgres', 'minio', 'chroma', 'ollama']) expect(compose.services[name].healthcheck, name).to.not.equal(undefined);
    expect(Object.keys(compose.volumes).sort()).to.deep.equal(['app-data', 'chroma-data', 'minio-data', 'ollama-models', 'postgres-data']);
  });

  it('pins each dependency image to the tag its Testcontainers suite runs against', () => {
    const suites: [string, string, string, string[]][] = [
      ['MINIO_IMAGE', MINIO_IMAGE, 'test/integration/minio/blob-store.minio-testcontainers.test.ts', ['minio']],
      ['CHROMA_IMAGE', CHROMA_IMAGE, 'test/integration/chroma/vector-index.chroma-testcontainers.test.ts', ['chroma']],
      ['OLLAMA_IMAGE', OLLAMA_IMAGE, 'test/integration/ollama/ollama-testcontainers.test.ts', ['ollama', 'ollama-pull']],
      ['POSTGRES_IMAGE', POSTGRES_IMAGE, 'test/integration/postgres/postgres.testcontainers.test.ts', ['postgres']],
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

  it('targets one current Node LTS: every image stage, .nvmrc and engines agree, and the running Node satisfies engines', () => {
    // Node 24 is the LTS the project is tested on (CI installs it); 20 left maintenance in April 2026.
    const stages = [...read('Dockerfile').matchAll(/^FROM node:(\S+)/gm)].map((m) => m[1]);
    expect(stages).to.have.length.greaterThanOrEqual(2);
    for (const tag of stages) expect(tag).to.equal('24-bookworm-slim');
    expect(read('.nvmrc').trim()).to.equal('24');
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    expect(engines).to.equal('>=22.13'); // pdfjs-dist 6's own floor
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    expect(major > 22 || (major === 22 && minor >= 13), `running Node ${process.versions.node}`).to.equal(true);
  });
});
