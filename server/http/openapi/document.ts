import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { addDocumentBody, chatBody, ingestBody, labelBody, uploadUrlBody } from '../schemas.js';
import * as librarySchemas from '../library-response-schemas.js';
import * as responseSchemas from '../response-schemas.js';
import { API_OPERATIONS, AUTHENTICATED, OVER_CAPACITY, type ApiOperation, type ApiResponseSpec } from './operations.js';

/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the operations table (operations.ts) and the valibot
 * request and response schemas (converted to JSON Schema 2020-12, OpenAPI 3.1's dialect). Served at
 * GET /api/v1/openapi.json; the end-to-end tests check every response against it.
 */

type Json = Record<string, unknown>;

/** Request schemas by the name they get under components.schemas. */
const REQUEST_SCHEMAS = {
  SessionLabel: labelBody, ChatQuestion: chatBody, UploadUrlRequest: uploadUrlBody, IngestRequest: ingestBody, AddDocumentRequest: addDocumentBody,
};

/** Every named schema; a schema used inside another (or as a whole body) becomes a $ref to its name. */
const NAMED: Record<string, v.GenericSchema> = { ...REQUEST_SCHEMAS, ...responseSchemas, ...librarySchemas };

/** Marks a path parameter whose value keeps its slashes (the local upload key); the tests' path matcher honours it. */
export const MULTI_SEGMENT = 'x-multi-segment';

/** On a text/event-stream media type: the JSON Schema of the `data` of each event, by event name. */
export const SSE_EVENTS = 'x-sse-events';

const REQUEST_ID_HEADER = 'X-Request-Id';

const conversion: ConversionConfig = {
  target: 'draft-2020-12',
  // Requests are described as they arrive: the history page is a string before it becomes a number.
  typeMode: 'input',
  errorMode: 'throw',
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
};

function schemaOf(schema: v.GenericSchema): JsonSchema {
  const name = Object.keys(NAMED).find((key) => NAMED[key] === schema);
  if (name) return { $ref: `#/components/schemas/${name}` };
  return strip(toJsonSchema(schema, { ...conversion, definitions: NAMED }));
}

/** Drops what the converter adds for a standalone schema: the dialect (the document's) and $defs (components). */
function strip(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, $defs: _defs, ...rest } = schema as JsonSchema & { $defs?: unknown };
  return rest;
}

function responseObject(spec: ApiResponseSpec): Json {
  const response: Json = {
    description: spec.description,
    headers: { [REQUEST_ID_HEADER]: { $ref: `#/components/headers/${REQUEST_ID_HEADER}` } },
  };
  const content: Json = {};
  if (spec.json) content['application/json'] = { schema: schemaOf(spec.json) };
  if (spec.text) content['text/plain'] = { schema: schemaOf(spec.text) };
  for (const type of spec.binary?.mediaTypes ?? []) content[type] = { schema: { type: 'string', contentMediaType: type } };
  if (spec.events) {
    // OpenAPI 3.1 cannot type the events of a stream: the body is a string, and SSE_EVENTS gives each event's data schema.
    content['text/event-stream'] = {
      schema: { type: 'string', description: spec.events.description },
      [SSE_EVENTS]: Object.fromEntries(Object.entries(spec.events.schemas).map(([name, schema]) => [name, schemaOf(schema)])),
    };
  }
  if (Object.keys(content).length > 0) response.content = content;
  return response;
}

/** The statuses a route answers: the ones every token route shares, then its own, and every route's 503 over a cap. */
function responsesOf(operation: ApiOperation): Record<number, ApiResponseSpec> {
  const responses = { ...(operation.public ? {} : AUTHENTICATED), ...operation.responses };
  const own = responses[503];
  responses[503] = own?.json
    ? { description: `${own.description}; or: ${OVER_CAPACITY.description}`, json: v.union([own.json, OVER_CAPACITY.json!]) }
    : OVER_CAPACITY;
  return responses;
}

/** Path parameters belong to the path item: every operation on it (CORS preflight included) shares them. */
function pathParametersOf(operation: ApiOperation): Json[] {
  return Object.entries(operation.pathParameters ?? {}).map(([name, description]) => ({
    name, in: 'path', required: true, description, schema: { type: 'string', minLength: 1 },
    ...(operation.multiSegmentParameter === name && { [MULTI_SEGMENT]: true }),
  }));
}

function queryParametersOf(operation: ApiOperation): Json[] {
  if (!operation.query) return [];
  const query = schemaOf(operation.query) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(query.properties ?? {}).map(([name, schema]) => {
    const { description, ...rest } = schema as JsonSchema & { description?: string };
    return { name, in: 'query', required: query.required?.includes(name) ?? false, ...(description && { description }), schema: rest };
  });
}

function operationObject(operation: ApiOperation): Json {
  const responses = Object.fromEntries(
    Object.entries(responsesOf(operation))
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([status, spec]) => [status, responseObject(spec)]),
  );
  const parameters = queryParametersOf(operation);
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description && { description: operation.description }),
    ...(operation.public && { security: [] }),
    ...(parameters.length > 0 && { parameters }),
    ...(operation.body && {
      requestBody: { required: true, content: { 'application/json': { schema: schemaOf(operation.body) } } },
    }),
    ...(operation.rawBody && {
      requestBody: {
        required: true,
        description: operation.rawBody.description,
        content: Object.fromEntries(operation.rawBody.mediaTypes.map((type) => [type, {}])),
      },
    }),
    responses,
  };
}

const PREFLIGHT_HEADERS = ['Origin', 'Access-Control-Request-Method'];

/** CORS preflights are answered on every path by the CORS middleware, before authentication. */
function preflightOperation(path: string): Json {
  return {
    operationId: `preflight${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: 'CORS preflight',
    security: [],
    parameters: PREFLIGHT_HEADERS.map((name) => ({ $ref: `#/components/parameters/${name}` })),
    responses: { 204: { description: 'The allowed origin, methods and headers in Access-Control-* headers; empty body' } },
  };
}

function build(): Json {
  const paths: Record<string, Json> = {};
  for (const operation of API_OPERATIONS) {
    const pathParameters = pathParametersOf(operation);
    paths[operation.path] ??= {
      ...(pathParameters.length > 0 && { parameters: pathParameters }),
      options: preflightOperation(operation.path),
    };
    paths[operation.path][operation.method] = operationObject(operation);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'doc-chat HTTP API',
      version: '1.0.0',
      description:
        'Sessions, document upload and ingestion, and questions answered from the documents of a session. ' +
        'docs/api.md in the repository explains every route. Any other path under /api/v1 answers 401 ' +
        '{"error":"Unauthorized Access"} without a valid token and 404 {"error":"Not found"} with one.',
    },
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: '`Authorization: Bearer <token>`' },
      },
      headers: {
        [REQUEST_ID_HEADER]: {
          description: 'Identifies the request in the server log (an unexpected failure is logged under it)',
          required: true,
          schema: { type: 'string', format: 'uuid' },
        },
      },
      parameters: Object.fromEntries(
        PREFLIGHT_HEADERS.map((name) => [name, { name, in: 'header', required: true, schema: { type: 'string' } }]),
      ),
      responses: {
        Unauthorized: responseObject(AUTHENTICATED[401]),
        UnknownRoute: responseObject({ description: 'Any path under /api/v1 that is no route, with a valid token', json: responseSchemas.RouteNotFound }),
      },
      schemas: Object.fromEntries(
        Object.entries(toJsonSchemaDefs(NAMED, conversion)).map(([name, schema]) => [name, strip(schema)]),
      ),
    },
  };
}

let built: Json | undefined;

/** The document (built once; callers must not modify it). */
export function openApiDocument(): Json {
  built ??= build();
  return built;
}
