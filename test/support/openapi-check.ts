import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { MULTI_SEGMENT, openApiDocument, SSE_EVENTS } from '../../server/http/openapi/document.js';
import { parseServerSentEvents } from './server-sent-events.js';

/**
 * Checks HTTP responses against the service's OpenAPI document (the one GET /api/v1/openapi.json serves): the route
 * and method must be documented, the status declared for them, the media type declared for that status, the body
 * valid against its schema (ajv, JSON Schema 2020-12) and the declared headers present. ApiClient runs every
 * response of the end-to-end suites through it, so the document cannot drift from what the server does.
 */

export interface ObservedResponse {
  method: string;
  /** Path and query as requested, e.g. `/api/v1/chat/history/x?page=1`. */
  path: string;
  status: number;
  headers: Headers;
  text: string;
}

export class ContractViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContractViolation';
  }
}

type Json = Record<string, any>;

interface Route {
  template: string;
  pattern: RegExp;
  parameterCount: number;
}

// ajv-formats is CommonJS: the plugin is module.exports.default.
const addFormats = addFormatsModule.default;

const DOCUMENT_ID = 'openapi.json';
const document = openApiDocument() as Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...document, $id: DOCUMENT_ID });
const validators = new Map<string, ValidateFunction>();

/** Documented paths, literal segments before parameters (as the routers prefer them), matched as the routers do. */
const routes: Route[] = Object.keys(document.paths)
  .map((template) => ({ template, pattern: patternOf(template), parameterCount: (template.match(/\{/g) ?? []).length }))
  .sort((a, b) => a.parameterCount - b.parameterCount);

function patternOf(template: string): RegExp {
  const parameters = ((document.paths[template] as Json).parameters ?? []) as Json[];
  const multiSegment = new Set(parameters.filter((p) => p[MULTI_SEGMENT]).map((p) => p.name as string));
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      return multiSegment.has(name) ? '(.+)' : '([^/]+)';
    })
    .join('');
  // The routers match without regard to case and accept further trailing slashes (not fewer: `/session` is no route).
  return new RegExp(`^${source}/*$`, 'i');
}

/** The documented operation for a request, or undefined when no route of the document takes it. */
function findOperation(method: string, pathname: string): { template: string; operation: Json } | undefined {
  const lower = method.toLowerCase();
  for (const route of routes) {
    const operation = (document.paths[route.template] as Json)[lower];
    if (operation && route.pattern.test(pathname)) return { template: route.template, operation };
  }
  return undefined;
}

const pointer = (parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** A validator for the schema at `parts` in the document (compiled once). */
function validatorAt(parts: string[]): ValidateFunction {
  const ref = `${DOCUMENT_ID}#/${pointer(parts)}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  return validate;
}

/** The response object declared for a status, and where it sits in the document (following one $ref). */
function declaredResponse(base: string[], declared: Json): { spec: Json; at: string[] } {
  if (typeof declared.$ref !== 'string') return { spec: declared, at: base };
  const at = declared.$ref.replace(/^#\//, '').split('/').map((key: string) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
  return { spec: at.reduce((node: Json, key: string) => node[key], document), at };
}

function describe(res: ObservedResponse): string {
  return `${res.method.toUpperCase()} ${res.path} → ${res.status}`;
}

/** Throws ContractViolation when the response is not what the document declares for its route. */
export function checkResponse(res: ObservedResponse): void {
  const method = res.method.toLowerCase();
  const found = findOperation(method, res.path.split('?')[0]);
  if (!found) {
    throw new ContractViolation(`${describe(res)}: no ${res.method.toUpperCase()} operation in the OpenAPI document takes this path`);
  }
  const declared = found.operation.responses as Json;
  const status = String(res.status);
  if (!declared[status]) {
    throw new ContractViolation(
      `${describe(res)}: status ${status} is not declared for ${res.method.toUpperCase()} ${found.template} ` +
        `(declared: ${Object.keys(declared).join(', ')}); body: ${res.text.slice(0, 300)}`,
    );
  }
  checkAgainst(res, declaredResponse(['paths', found.template, method, 'responses', status], declared[status]));
}

/**
 * For a request to a path the document does not have (a test of unknown routes): checks that no documented operation
 * takes it and that the answer is the one the document gives for such paths (401 without a valid token, else 404).
 */
export function checkUnknownRouteResponse(res: ObservedResponse): void {
  const found = findOperation(res.method.toLowerCase(), res.path.split('?')[0]);
  if (found) throw new ContractViolation(`${describe(res)}: ${found.template} is a documented route, not an unknown one`);
  const name = ({ 401: 'Unauthorized', 404: 'UnknownRoute' } as Record<number, string>)[res.status];
  if (!name) throw new ContractViolation(`${describe(res)}: an unknown route answers 401 or 404, not ${res.status}`);
  checkAgainst(res, declaredResponse([], { $ref: `#/components/responses/${name}` }));
}

function checkAgainst(res: ObservedResponse, { spec, at }: { spec: Json; at: string[] }): void {
  for (const [name, header] of Object.entries((spec.headers ?? {}) as Json)) {
    const { spec: resolved } = declaredResponse([], header);
    if (resolved.required && res.headers.get(name) === null) throw new ContractViolation(`${describe(res)}: header ${name} is missing`);
  }
  const content = spec.content as Json | undefined;
  if (!content) {
    if (res.text !== '') throw new ContractViolation(`${describe(res)}: declared without a body, got ${res.text.slice(0, 300)}`);
    return;
  }
  const mediaType = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (!(mediaType in content)) {
    throw new ContractViolation(`${describe(res)}: Content-Type "${mediaType}" is not declared (declared: ${Object.keys(content).join(', ')})`);
  }
  if (mediaType === 'text/event-stream') return checkEvents(res, [...at, 'content', mediaType], content[mediaType] as Json);
  if (mediaType.startsWith('image/')) {
    // A binary body: ApiClient.getBinary reports its length as the text; it must not be empty.
    if (res.text === '' || res.text === '0') throw new ContractViolation(`${describe(res)}: the ${mediaType} body is empty`);
    return;
  }
  let body: unknown = res.text;
  if (mediaType === 'application/json') {
    try {
      body = JSON.parse(res.text);
    } catch {
      throw new ContractViolation(`${describe(res)}: the body is not JSON: ${res.text.slice(0, 300)}`);
    }
  }
  const validate = validatorAt([...at, 'content', mediaType, 'schema']);
  if (!validate(body)) {
    throw new ContractViolation(
      `${describe(res)}: the body does not match the document: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}; ` +
        `body: ${res.text.slice(0, 500)}`,
    );
  }
}

/** A stream of server-sent events: every event declared by name, its `data` JSON valid against that event's schema. */
function checkEvents(res: ObservedResponse, at: string[], declared: Json): void {
  const schemas = (declared[SSE_EVENTS] ?? {}) as Json;
  const { events, rest } = parseServerSentEvents(res.text);
  if (rest.trim() !== '') throw new ContractViolation(`${describe(res)}: the stream ends inside an event: ${rest.slice(0, 300)}`);
  for (const event of events) {
    if (!(event.event in schemas)) {
      throw new ContractViolation(`${describe(res)}: event "${event.event}" is not declared (declared: ${Object.keys(schemas).join(', ')})`);
    }
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      throw new ContractViolation(`${describe(res)}: the data of event "${event.event}" is not JSON: ${event.data.slice(0, 300)}`);
    }
    const validate = validatorAt([...at, SSE_EVENTS, event.event]);
    if (!validate(data)) {
      throw new ContractViolation(
        `${describe(res)}: event "${event.event}" does not match the document: ${ajv.errorsText(validate.errors, { dataVar: 'data' })}; ` +
          `data: ${event.data.slice(0, 500)}`,
      );
    }
  }
}
