import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '../../server/config.js';
import { CHROMA_IMAGE, OBJECT_STORE_COMMAND, OBJECT_STORE_IMAGE, OBJECT_STORE_S3_PORT, OLLAMA_IMAGE, POSTGRES_IMAGE } from '../support/container-images.js';
import { REPO_ROOT } from '../support/paths.js';

const read = (name: string) => fs.readFileSync(path.join(REPO_ROOT, name), 'utf8');

interface ComposeService {
  image?: string;
  build?: unknown;
  ports?: string[];
  command?: string[];
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
    .filter((line) => /^[A-Z_][A-Z0-9_]*=/.test(line))
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
    for (const name of ['S3_ENDPOINT', 'CHROMA_URL', 'OLLAMA_URL']) expect(env[name], name).to.match(/^http:\/\//);
    // The secret is required in this mode; .env.example leaves it for the operator to fill in.
    const config = loadConfig({ ...env, AUTH_JWT_SECRET: 'a-secret-the-operator-puts-in-env-0123' });
    expect(config.blobs.kind).to.equal('s3');
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
    for (const name of ['DATABASE_URL', 'AUTH_JWT_SECRET', 'S3_ENDPOINT', 'S3_BUCKET', 'CHROMA_URL', 'CHROMA_COLLECTION', 'OLLAMA_URL']) {
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
      seaweedfs: { condition: 'service_healthy' },
      chroma: { condition: 'service_healthy' },
      'ollama-pull': { condition: 'service_completed_successfully' },
    });
    expect(compose.services.worker.depends_on).to.deep.equal({ app: { condition: 'service_healthy' } });
    for (const name of ['app', 'worker', 'postgres', 'seaweedfs', 'chroma', 'ollama']) expect(compose.services[name].healthcheck, name).to.not.equal(undefined);
    expect(Object.keys(compose.volumes).sort()).to.deep.equal(['app-data', 'chroma-data', 'ollama-models', 'postgres-data', 'seaweedfs-data']);
  });

  it('pins each dependency image to the tag its Testcontainers suite runs against', () => {
    const suites: [string, string, string, string[]][] = [
      ['OBJECT_STORE_IMAGE', OBJECT_STORE_IMAGE, 'test/integration/s3/blob-store.seaweedfs-testcontainers.test.ts', ['seaweedfs']],
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

  it('the object store runs as its suite starts it, with the app\'s keys, its S3 port published and its health asked', () => {
    const store = compose.services.seaweedfs;
    // The same command as the Testcontainers suite, so the flags it tests (no WebDAV, no telemetry) are the deployed ones.
    expect(store.command).to.deep.equal([...OBJECT_STORE_COMMAND]);
    expect(read('test/integration/s3/blob-store.seaweedfs-testcontainers.test.ts')).to.include('.withCommand([...OBJECT_STORE_COMMAND])');
    // Its one identity is the one the app signs with: both come from the same .env variables.
    const storeEnv = Object.fromEntries(Object.entries(store.environment!).map(([k, v]) => [k, substitute(String(v), envExample)]));
    const appEnv = resolvedEnv(app);
    expect(storeEnv.AWS_ACCESS_KEY_ID).to.equal(appEnv.S3_ACCESS_KEY).and.not.equal('');
    expect(storeEnv.AWS_SECRET_ACCESS_KEY).to.equal(appEnv.S3_SECRET_KEY).and.not.equal('');
    expect(read('docker-compose.yml')).to.match(/AWS_SECRET_ACCESS_KEY: \$\{S3_SECRET_KEY:\?/);
    // The app reaches it on the S3 port, browsers on the published one, and only that port is published.
    expect(new URL(appEnv.S3_ENDPOINT).host).to.equal(`seaweedfs:${OBJECT_STORE_S3_PORT}`);
    expect(store.ports).to.deep.equal([`${OBJECT_STORE_S3_PORT}:${OBJECT_STORE_S3_PORT}`]);
    expect(new URL(appEnv.S3_PUBLIC_URL).port).to.equal(String(OBJECT_STORE_S3_PORT));
    expect(JSON.stringify(store.healthcheck)).to.include(`127.0.0.1:${OBJECT_STORE_S3_PORT}/healthz`);
    expect(store.volumes).to.deep.equal(['seaweedfs-data:/data']);
  });

  it('every image is an exact release tag, and compose, the suites, the README and docs/operations.md name the same ones', () => {
    const pulled = [...new Set(Object.values(compose.services).map((service) => service.image).filter((image) => image && image !== app.image))];
    const tested = [OBJECT_STORE_IMAGE, CHROMA_IMAGE, OLLAMA_IMAGE, POSTGRES_IMAGE];
    expect([...pulled].sort()).to.deep.equal([...tested].sort());
    for (const image of tested) {
      // repository:MAJOR.MINOR[.PATCH][-variant], a digest after it allowed (renovate pins them): no `latest`, no `17`.
      expect(image).to.match(/^[a-z0-9][a-z0-9./_-]*:\d+\.\d+(\.\d+)?(-[a-z0-9]+)?(@sha256:[a-f0-9]{64})?$/);
      const tag = image.replace(/@sha256:.*$/, '');
      const repository = tag.slice(0, tag.lastIndexOf(':'));
      for (const file of ['README.md', 'docs/operations.md']) {
        expect(read(file), `${file} names ${tag}`).to.include(`\`${tag}\``);
        // ... and no other version of it (a row left behind by an update).
        const named = [...read(file).matchAll(new RegExp(`(?<![\\w@/.-])${repository.replace(/[./]/g, '\\$&')}:\\d+\\.\\d+[\\w.-]*`, 'g'))].map((m) => m[0]);
        expect(named.filter((other) => other !== tag), file).to.deep.equal([]);
      }
    }
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
    // The tag, without the digest renovate pins beside it.
    const stages = [...read('Dockerfile').matchAll(/^FROM node:([^\s@]+)/gm)].map((m) => m[1]);
    expect(stages).to.have.length.greaterThanOrEqual(2);
    for (const tag of stages) expect(tag).to.equal('24-bookworm-slim');
    expect(read('.nvmrc').trim()).to.equal('24');
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    expect(engines).to.equal('>=22.13'); // pdfjs-dist 6's own floor
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    expect(major > 22 || (major === 22 && minor >= 13), `running Node ${process.versions.node}`).to.equal(true);
  });
});
