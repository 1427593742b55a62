import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Ajv, type ErrorObject } from 'ajv';
import { expect } from 'chai';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/paths.js';

/**
 * docker-compose.yml against the Compose Specification's JSON schema, as `docker compose config` would read it: no
 * engine runs here, so this is how a misspelt key or a wrong type is caught before anyone runs the stack. The schema
 * is the compose-spec project's own schema/compose-spec.json (Apache-2.0), as the dclint package ships it.
 */
const require = createRequire(import.meta.url);
const schemaFile = path.join(path.dirname(require.resolve('dclint/package.json')), 'schemas', 'compose.schema.json');
const schema = JSON.parse(fs.readFileSync(schemaFile, 'utf8')) as { $schema: string; title: string };

// The schema names its meta-schema by the https address; Ajv registers draft-07 under the http one.
const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addMetaSchema({ ...(require('ajv/dist/refs/json-schema-draft-07.json') as object), $id: schema.$schema });
const validate = ajv.compile(schema);

/** The compose file as compose reads it: YAML merge keys (`<<:`) resolved. */
const composeText = fs.readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
const parsed = () => parse(composeText, { merge: true }) as { services: Record<string, Record<string, unknown>> } & Record<string, unknown>;

function errorsOf(document: unknown): ErrorObject[] {
  return validate(document) ? [] : (validate.errors ?? []);
}

describe('docker-compose.yml against the Compose Specification schema', () => {
  it('uses the Compose Specification schema itself', () => {
    expect(schema.title).to.equal('Compose Specification');
    expect(schema.$schema).to.match(/json-schema\.org\/draft-07\/schema$/);
  });

  it('is valid', () => {
    expect(errorsOf(parsed()).map((e) => `${e.instancePath} ${e.message}`)).to.deep.equal([]);
  });

  // A validator that passes everything would pass the file above too: these copies, each broken once, must fail.
  const breakages: [string, (doc: ReturnType<typeof parsed>) => void, string][] = [
    ['a misspelt service key', (doc) => { doc.services.seaweedfs.healtcheck = doc.services.seaweedfs.healthcheck; }, '/services/seaweedfs'],
    ['a health check interval as a number', (doc) => { (doc.services.app.healthcheck as Record<string, unknown>).interval = 15; }, '/services/app/healthcheck/interval'],
    ['an unknown depends_on condition', (doc) => { (doc.services.app.depends_on as Record<string, { condition: string }>).postgres.condition = 'service_ready'; }, '/services/app/depends_on/postgres/condition'],
    ['a service that is a string', (doc) => { doc.services.chroma = 'chromadb/chroma' as never; }, '/services/chroma'],
    ['an unknown top-level key', (doc) => { doc.servics = {}; }, ''],
  ];
  for (const [what, mutate, instancePath] of breakages) {
    it(`fails with ${what}`, () => {
      const doc = parsed();
      mutate(doc);
      const errors = errorsOf(doc);
      expect(errors, what).to.not.deep.equal([]);
      expect(errors.map((e) => e.instancePath), what).to.include(instancePath);
    });
  }
});
