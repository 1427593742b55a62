import { checkResponse, checkUnknownRouteResponse } from './test/support/openapi-check.js';
const h = (ct?: string) => { const x = new Headers({ 'x-request-id': 'a' }); if (ct) x.set('content-type', ct); return x; };
const tries: [string, () => void][] = [
  ['ok list', () => checkResponse({ method: 'GET', path: '/api/v1/session/', status: 200, headers: h('application/json; charset=utf-8'), text: JSON.stringify([{ id: 'a', label: 'b', user_id: 'c', createdAt: new Date().toISOString() }]) })],
  ['bad list', () => checkResponse({ method: 'GET', path: '/api/v1/session', status: 200, headers: h('application/json'), text: JSON.stringify([{ id: 'a', label: 'b', user_id: 'c', createdAt: 'yesterday', extra: 1 }]) })],
  ['418', () => checkResponse({ method: 'GET', path: '/api/v1/session/', status: 418, headers: h('application/json'), text: '{}' })],
  ['upload', () => checkResponse({ method: 'PUT', path: '/uploads/alice/x-y.pdf?sig=1', status: 200, headers: h('application/json'), text: '{"ok":true}' })],
  ['health', () => checkResponse({ method: 'GET', path: '/api/v1/health', status: 200, headers: h('text/plain; charset=utf-8'), text: 'up' })],
  ['health bad', () => checkResponse({ method: 'GET', path: '/api/v1/health', status: 200, headers: h('text/plain'), text: 'down' })],
  ['unknown', () => checkUnknownRouteResponse({ method: 'GET', path: '/api/v1/nothing', status: 404, headers: h('application/json'), text: '{"error":"Not found"}' })],
  ['unknown but known', () => checkUnknownRouteResponse({ method: 'GET', path: '/api/v1/session/', status: 404, headers: h('application/json'), text: '{"error":"Not found"}' })],
  ['ingest process GET', () => checkResponse({ method: 'GET', path: '/api/v1/ingest/process', status: 404, headers: h('application/json'), text: '{"error":"Ingest job not found"}' })],
  ['204', () => checkResponse({ method: 'DELETE', path: '/api/v1/chat/abc', status: 204, headers: h(), text: '' })],
  ['preflight', () => checkResponse({ method: 'OPTIONS', path: '/api/v1/session/', status: 204, headers: h(), text: '' })],
];
for (const [name, f] of tries) { try { f(); console.log(name, 'OK'); } catch (e) { console.log(name, 'FAIL', (e as Error).message); } }
