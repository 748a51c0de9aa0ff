import { describe, expect, it } from 'vitest';
import { ErrorBody } from './errors';
import { buildOpenApiDocument, toOpenApiPath } from './openapi';
import { routesFor } from './routes';
import { ServiceName } from './services';

type Doc = {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, unknown> };
};

describe('buildOpenApiDocument', () => {
  for (const service of ServiceName.options) {
    it(`documents exactly the routes of ${service}`, () => {
      const doc = buildOpenApiDocument(service) as Doc;
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.info.title).toBe(`Pagecast ${service} API`);
      const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((method) => `${method} ${path}`),
      );
      const expected = routesFor(service).map((r) => `${r.method} ${toOpenApiPath(r.path)}`);
      expect(documented.sort()).toEqual(expected.sort());
      expect(documented.some((p) => p.includes(':'))).toBe(false);
      expect(doc.components.schemas.Error).toMatchObject({ type: 'object', required: ['code', 'message'] });
      expect(() => JSON.stringify(doc)).not.toThrow();
    });
  }

  it('publishes the error fields the services send: details (rate limit, playlist items) and correlationId', () => {
    const error = (buildOpenApiDocument('account') as Doc).components.schemas.Error as {
      properties: Record<string, { type?: string }>;
      additionalProperties?: boolean;
    };
    expect(Object.keys(error.properties).sort()).toEqual(['code', 'correlationId', 'details', 'issues', 'message']);
    expect(error.properties.details?.type).toBe('object');
    for (const body of [
      { code: 'RATE_LIMITED', message: 'x', details: { retryAfterSeconds: 30 } },
      { code: 'FILE_NOT_FOUND', message: 'x', details: { fileId: 'f1' } },
      { code: 'INTERNAL', message: 'x', correlationId: 'req-1' },
    ])
      expect(ErrorBody.strict().safeParse(body).success, body.code).toBe(true);
  });

  it('describes parameters, bodies, multipart and security', () => {
    const files = buildOpenApiDocument('file-conversion') as Doc;
    const getFile = files.paths['/api/files/{id}']?.get as Record<string, unknown>;
    expect(getFile.parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
      expect.objectContaining({ name: 'signage_mode', in: 'query', required: false }),
    ]);
    const upload = files.paths['/api/files/upload']?.post as { requestBody: { content: Record<string, unknown> } };
    const multipart = upload.requestBody.content['multipart/form-data'] as {
      schema: { properties: Record<string, unknown>; required: string[] };
    };
    expect(multipart.schema.properties.pdf).toMatchObject({ type: 'string', format: 'binary' });
    expect(multipart.schema.required).toEqual(expect.arrayContaining(['pdf', 'title']));
    expect(files.paths['/api/files']?.get?.security).toEqual([{ cookieAuth: [] }]);

    const account = buildOpenApiDocument('account') as Doc;
    const login = account.paths['/api/auth/local-login']?.post as {
      security: unknown[];
      requestBody: { content: { 'application/json': { schema: { required: string[] } } } };
    };
    expect(login.security).toEqual([]);
    const welcome = account.paths['/api/auth/mark-welcome-seen']?.post as { requestBody: { required: boolean } };
    expect(welcome.requestBody.required).toBe(false);
    expect(login.requestBody.content['application/json'].schema.required.sort()).toEqual(['email', 'password']);
  });
});
