import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { compileErrors, validate } from '@readme/openapi-parser';
import type Router from '@koa/router';
import { expect } from 'chai';
import type { LocalBlobStore } from '../../adapters/local-blob/local-blob-store.js';
import { UnauthenticatedError } from '../../core/domain/errors.js';
import { ServiceMetrics } from '../../adapters/prometheus/service-metrics.js';
import { createHttpApp } from '../../server/http/app.js';
import { openApiDocument } from '../../server/http/openapi/document.js';
import { localUploadRouter } from '../../server/http/routes/local-upload.routes.js';
import { ApiClient } from '../support/api-client.js';
import { coreFixture } from '../support/core-fixture.js';
import { REPO_ROOT } from '../support/paths.js';
import { checkResponse, checkUnknownRouteResponse, ContractViolation, type ObservedResponse } from '../support/openapi-check.js';
import { RecordingLogger } from '../fakes/fixed-clock-and-ids.js';

/** Operations of a path item other than the CORS preflight, which the CORS middleware answers on every path. */
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'trace'];

/** `<method> <path>` of every operation in the document but the CORS preflights. */
function documentedOperations(): string[] {
  const paths = openApiDocument().paths as Record<string, Record<string, unknown>>;
  return Object.entries(paths).flatMap(([route, item]) =>
    Object.keys(item).filter((key) => HTTP_METHODS.includes(key)).map((method) => `${method} ${route}`),
  );
}

/**
 * The OpenAPI document: served without a token, valid OpenAPI 3.1, the very document the end-to-end suites check
 * every response against, and in step with the routes the server registers. And the checker itself refuses what the
 * document does not declare, so a response that drifts from the document fails its test.
 */
describe('OpenAPI document (GET /api/v1/openapi.json)', () => {
  const fx = coreFixture();
  let server: Server;
  let anonymous: ApiClient;

  before(async () => {
    const identity = { verify: async (): Promise<never> => { throw new UnauthenticatedError(); } };
    const app = createHttpApp({ docChat: fx.docChat, identity, probes: [], corsOrigins: '*', logger: new RecordingLogger() });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    anonymous = new ApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is served without a token and validates as OpenAPI 3.1', async () => {
    const res = await anonymous.get('/api/v1/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    expect(res.body.openapi).to.match(/^3\.1\.\d+$/);
    const result = await validate(JSON.parse(res.text));
    expect(result.valid, result.valid ? '' : compileErrors(result)).to.equal(true);
    expect(result.specification).to.equal('OpenAPI');
    expect(result.warnings).to.deep.equal([]);
  });

  it('is the document the end-to-end checks use', async () => {
    const res = await anonymous.get('/api/v1/openapi.json');
    expect(res.body).to.deep.equal(JSON.parse(JSON.stringify(openApiDocument())));
  });

  it('documents exactly the routes the app mounts, method by method', () => {
    // Every router mounted on the app (the local upload one too), found through the middleware @koa/router returns.
    const app = createHttpApp({
      docChat: fx.docChat, identity: { verify: async () => ({ userId: 'x' }) }, probes: [], corsOrigins: '*',
      logger: new RecordingLogger(), extraRouters: [localUploadRouter({} as LocalBlobStore)],
      metrics: new ServiceMetrics(async () => ({}), { processMetrics: false }),
    });
    const routers = app.middleware.map((m) => (m as { router?: Router }).router).filter((r): r is Router => r !== undefined);
    const registered = routers.flatMap((router) =>
      router.stack.flatMap((layer) =>
        layer.methods
          .filter((method) => method !== 'HEAD')
          // Koa's `:name` and `*name` parameters are OpenAPI's `{name}`.
          .map((method) => `${method.toLowerCase()} ${String(layer.path).replace(/[:*](\w+)/g, '{$1}')}`),
      ),
    );
    expect(registered.length).to.be.greaterThan(10);
    expect([...documentedOperations()].sort()).to.deep.equal([...registered].sort());
  });

  it('has a section in docs/api.md for every operation', () => {
    const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'api.md'), 'utf8');
    for (const operation of documentedOperations()) {
      const [method, route] = operation.split(' ');
      // The local upload route is the signed URL's target: its section is "PUT {signedUrl}" and names the path.
      const heading = route === '/uploads/{key}' ? 'PUT {signedUrl}' : `${method.toUpperCase()} ${route.replace(/\{(\w+)\}/g, ':$1')}`;
      expect(doc, operation).to.include(`### ${heading}`);
    }
  });

  it('declares the spec’s exact error bodies', () => {
    const schemas = (openApiDocument().components as { schemas: Record<string, any> }).schemas;
    expect(schemas.Unauthorized.properties.error).to.deep.equal({ const: 'Unauthorized Access' });
    expect(schemas.SessionNotFound.properties.error).to.deep.equal({ const: 'Session not found' });
    expect(schemas.SessionDeletionFailed.properties.error).to.deep.equal({ const: 'Session deletion failed' });
    expect(schemas.ChatInternalError.required).to.have.members(['success', 'error']);
    expect(schemas.SessionCreateInternalError.required).to.have.members(['success', 'error', 'code']);
  });

  describe('the response check refuses what the document does not declare', () => {
    const json = (status: number, body: unknown, path = '/api/v1/session/', method = 'GET'): ObservedResponse => ({
      method, path, status, text: JSON.stringify(body),
      headers: new Headers({ 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'c0ffee00-0000-4000-8000-000000000000' }),
    });
    const session = { id: 's1', label: 'Papers', user_id: 'alice', createdAt: '2026-01-02T03:04:05.678Z' };

    it('accepts a response as declared (the control)', () => {
      checkResponse(json(200, [session]));
      checkResponse(json(401, { error: 'Unauthorized Access' }));
      checkResponse(json(404, { error: 'Session not found' }, '/api/v1/Session/s1/', 'PATCH'));
    });

    const stream = (text: string): ObservedResponse => ({
      method: 'POST', path: '/api/v1/chat/completions', status: 200, text,
      headers: new Headers({ 'content-type': 'text/event-stream', 'x-request-id': 'c0ffee00-0000-4000-8000-000000000000' }),
    });
    const source = { filename: 'a.pdf', page: 2, excerpt: 'Fees.', score: 1.5, ingestId: 'j1', cited: true };

    it('accepts a streamed answer as declared, event by event (the control)', () => {
      checkResponse(stream(
        'event: delta\ndata: {"text":"Fees are "}\n\nevent: delta\ndata: {"text":"45 dollars."}\n\n' +
          `event: sources\ndata: ${JSON.stringify({ sources: [source] })}\n\n` +
          'event: done\ndata: {"userMessageId":"m1","assistantMessageId":"m2"}\n\n',
      ));
      checkResponse(stream('event: delta\ndata: {"text":"Fees"}\n\nevent: error\ndata: {"success":false,"error":"Service Unavailable"}\n\n'));
    });

    const refusals: [string, ObservedResponse, RegExp][] = [
      ['an undeclared event in a stream', stream('event: token\ndata: {"text":"x"}\n\n'), /event "token" is not declared/],
      ['an event whose data is off its schema', stream(`event: sources\ndata: ${JSON.stringify({ sources: [{ ...source, page: 0 }] })}\n\n`), /event "sources" does not match/],
      ['an event whose data is not JSON', stream('event: delta\ndata: Fees are\n\n'), /not JSON/],
      ['a stream cut inside an event', stream('event: delta\ndata: {"text":"x"}'), /ends inside an event/],
      ['a status the route does not declare', json(409, { error: 'conflict' }), /status 409 is not declared for GET \/api\/v1\/session\//],
      ['a field the schema does not have', json(200, [{ ...session, extra: 1 }]), /additional properties/],
      ['a missing field', json(201, { data: { id: 's1', label: 'x', user_id: 'alice' } }, '/api/v1/session/', 'POST'), /createdAt/],
      ['an error text other than the spec’s', json(401, { error: 'Unauthorized' }), /constant/],
      ['another route’s error shape', json(500, { error: 'Internal Server Error', code: 'INTERNAL' }, '/api/v1/chat/completions', 'POST'), /success/],
      ['a path no operation takes', json(200, {}, '/api/v1/sessions'), /no GET operation/],
      ['the session collection without its slash (the routers’ 404)', json(200, [], '/api/v1/session'), /no GET operation/],
      ['a method the path lacks', json(200, {}, '/api/v1/health/ready', 'POST'), /no POST operation/],
      ['a body on a 204', json(204, { ok: true }, '/api/v1/session/s1', 'DELETE'), /without a body/],
      [
        'an undeclared media type',
        { ...json(200, 'up', '/api/v1/health'), text: 'up', headers: new Headers({ 'content-type': 'text/html', 'x-request-id': 'x' }) },
        /Content-Type "text\/html" is not declared/,
      ],
      ['a missing X-Request-Id header', { ...json(200, [session]), headers: new Headers({ 'content-type': 'application/json' }) }, /X-Request-Id is missing/],
    ];
    for (const [name, res, message] of refusals) {
      it(`refuses ${name}`, () => {
        expect(() => checkResponse(res)).to.throw(ContractViolation, message);
      });
    }

    it('takes the local upload key with its slashes, and only PUT there', () => {
      checkResponse(json(200, { ok: true }, '/uploads/alice/0000-a.pdf?expires=1&type=application%2Fpdf&size=1&sig=ab', 'PUT'));
      expect(() => checkResponse(json(200, { ok: true }, '/uploads/alice/0000-a.pdf', 'GET'))).to.throw(ContractViolation, /no GET operation/);
    });

    it('checks an unknown route as such, and refuses a documented one in its place', () => {
      checkUnknownRouteResponse(json(404, { error: 'Not found' }, '/api/v1/nothing-here'));
      checkUnknownRouteResponse(json(401, { error: 'Unauthorized Access' }, '/api/v1/nothing-here'));
      expect(() => checkUnknownRouteResponse(json(404, { error: 'Not found' }))).to.throw(ContractViolation, /documented route/);
      expect(() => checkUnknownRouteResponse(json(500, { error: 'x' }, '/api/v1/nothing-here'))).to.throw(ContractViolation, /401 or 404/);
    });
  });
});
