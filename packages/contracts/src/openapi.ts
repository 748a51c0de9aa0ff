import { z } from 'zod';
import { ErrorBody } from './errors';
import { DEVICE_COOKIE } from './identity';
import { SESSION_COOKIE } from './session';
import { type RouteDef, refusesCrossSite } from './route-def';
import { routesFor } from './routes';
import type { ServiceName } from './services';

type JsonSchema = Record<string, unknown>;

/** JSON Schema (2020-12, which OpenAPI 3.1 uses) of a zod schema; never throws on transforms or refinements. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  return out;
}

/** '/api/files/:id' → '/api/files/{id}' */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query' | 'header'): JsonSchema[] {
  if (!schema) return [];
  const json = jsonSchemaOf(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, propSchema]) => {
    const param: JsonSchema = {
      name,
      in: where,
      required: where === 'path' ? true : required.has(name),
      schema: propSchema,
    };
    // repeated query values (?tags=a&tags=b)
    if (where === 'query' && propSchema.type === 'array') {
      param.style = 'form';
      param.explode = true;
    }
    return param;
  });
}

function requestBodyOf(route: RouteDef): JsonSchema | undefined {
  if (route.rawBody) {
    return { required: true, content: { [route.rawBody]: { schema: { type: 'string', format: 'binary' } } } };
  }
  if (!route.body) return undefined;
  const schema = jsonSchemaOf(route.body, 'input');
  if (!route.multipart) {
    return { required: !route.body.safeParse(undefined).success, content: { 'application/json': { schema } } };
  }
  const properties = { ...((schema.properties ?? {}) as Record<string, JsonSchema>) };
  const required = [...((schema.required ?? []) as string[])];
  if (route.fileField) {
    properties[route.fileField] = { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' };
    required.unshift(route.fileField);
  }
  // object-valued text fields travel as JSON text
  const encoding: Record<string, JsonSchema> = {};
  for (const [name, prop] of Object.entries(properties)) {
    if (prop.type === 'object') encoding[name] = { contentType: 'application/json' };
  }
  return {
    required: true,
    content: { 'multipart/form-data': { schema: { ...schema, type: 'object', properties, required }, encoding } },
  };
}

function operationOf(route: RouteDef): JsonSchema {
  const status = String(route.successStatus ?? 200);
  const headers = route.responseHeaders
    ? Object.fromEntries(
        Object.entries(route.responseHeaders).map(([name, description]) => [
          name,
          { description, schema: { type: 'string' } },
        ]),
      )
    : undefined;
  const success: JsonSchema =
    status === '201' || status === '204'
      ? { description: status === '201' ? 'Created' : 'No Content', ...(headers ? { headers } : {}) }
      : status === '302'
        ? { description: 'Redirect', headers: { Location: { schema: { type: 'string' } } } }
        : status === '101'
          ? { description: 'Switching Protocols (WebSocket): JSON text frames, see x-pagecast-socket' }
          : {
              description: 'OK',
              content: {
                [route.responseContentType ?? 'application/json']: {
                  schema: route.responseContentType
                    ? { type: 'string', format: 'binary' }
                    : jsonSchemaOf(route.response, 'output'),
                },
              },
            };
  const errorResponse = { $ref: '#/components/responses/Error' };
  const responses: JsonSchema = { [status]: success, '4XX': errorResponse, '5XX': errorResponse };
  if (route.alsoAnswers) {
    responses[String(route.alsoAnswers.status)] = {
      description: route.alsoAnswers.description,
      ...(headers ? { headers } : {}),
      content: { 'application/json': { schema: jsonSchemaOf(route.alsoAnswers.response, 'output') } },
    };
  }
  // The gateway refuses a state-changing call made by a page of another site (gateway/src/same-origin.ts); a
  // navigation (302) is sent to / instead, as its summary says.
  const crossSite = refusesCrossSite(route.method, route) ? 'refused' : 'allowed';
  if (crossSite === 'refused' && status !== '302') {
    responses['403'] = {
      description:
        'Refused ({ code, message }): CROSS_SITE_REQUEST when a page of another site made the call (Sec-Fetch-Site, ' +
        'else Origin or Referer, says so; nothing changes), or a refusal of this route',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  const operation: JsonSchema = {
    operationId: route.id,
    summary: route.summary,
    tags: [route.service],
    parameters: [
      ...parametersOf(route.params, 'path'),
      ...parametersOf(route.query, 'query'),
      ...parametersOf(route.headers, 'header'),
    ],
    responses,
    'x-pagecast-auth': route.auth,
    'x-pagecast-cross-site': crossSite,
    // what the call does in the workspace it names (packages/policy): a role without it gets 403 FORBIDDEN_ROLE
    ...(route.action ? { 'x-pagecast-action': route.action } : {}),
  };
  const body = requestBodyOf(route);
  if (body) operation.requestBody = body;
  if (route.socketFrames) {
    operation['x-pagecast-socket'] = {
      up: jsonSchemaOf(route.socketFrames.up, 'input'),
      down: jsonSchemaOf(route.socketFrames.down, 'output'),
      protocol: 'docs/device-socket.md',
    };
  }
  if (route.auth === 'session') operation.security = [{ cookieAuth: [] }];
  else if (route.auth === 'optional') operation.security = [{}, { cookieAuth: [] }];
  else if (route.auth === 'device') operation.security = [{ deviceAuth: [] }];
  else operation.security = [];
  return operation;
}

/** OpenAPI 3.1 document of one service's routes (served at GET /openapi.json). */
export function buildOpenApiDocument(service: ServiceName): Record<string, unknown> {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routesFor(service)) {
    const key = toOpenApiPath(route.path);
    paths[key] ??= {};
    paths[key][route.method] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: `Pagecast ${service} API`, version: '1.0.0' },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: { Error: jsonSchemaOf(ErrorBody, 'output') },
      responses: {
        Error: {
          description: 'Error ({ code, message, issues })',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
      securitySchemes: {
        cookieAuth: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
        deviceAuth: { type: 'apiKey', in: 'cookie', name: DEVICE_COOKIE },
      },
    },
  };
}
