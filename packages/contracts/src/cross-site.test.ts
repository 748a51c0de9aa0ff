import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, toOpenApiPath } from './openapi';
import { refusesCrossSite } from './route-def';
import { apiRoutes, findRoute } from './routes';
import { ServiceName } from './services';

type Operation = { responses: Record<string, { description?: string }>; 'x-pagecast-cross-site'?: string };
type Doc = { paths: Record<string, Record<string, Operation>> };

describe('calls refused from pages of other sites', () => {
  it('are every post, put and delete but the webhook, and the logout navigation', () => {
    const refused = apiRoutes.filter((r) => refusesCrossSite(r.method, r)).map((r) => `${r.method} ${r.path}`);
    // HEAD reads (the resumable upload's offset); PATCH writes (its bytes)
    const changing = apiRoutes
      .filter((r) => r.method !== 'get' && r.method !== 'head')
      .map((r) => `${r.method} ${r.path}`);
    expect(changing).toContain('patch /api/files/uploads/:uploadId');
    expect(refused.sort()).toEqual(
      [...changing.filter((r) => r !== 'post /api/payments/webhook'), 'get /api/logout'].sort(),
    );
    // a state-changing method on a path the table does not know, and HEAD of the logout (express answers it with GET)
    expect(refusesCrossSite('PATCH', findRoute('PATCH', '/api/files/x'))).toBe(true);
    expect(refusesCrossSite('HEAD', findRoute('HEAD', '/api/logout'))).toBe(true);
    expect(refusesCrossSite('OPTIONS', findRoute('OPTIONS', '/api/files'))).toBe(false);
  });

  it('document 403 CROSS_SITE_REQUEST, and the others are marked allowed', () => {
    for (const service of ServiceName.options) {
      const doc = buildOpenApiDocument(service) as Doc;
      for (const route of apiRoutes.filter((r) => r.service === service)) {
        const op = doc.paths[toOpenApiPath(route.path)]?.[route.method] as Operation;
        const name = `${route.method} ${route.path}`;
        const refused = refusesCrossSite(route.method, route);
        expect(op['x-pagecast-cross-site'], name).toBe(refused ? 'refused' : 'allowed');
        if (refused && route.successStatus !== 302)
          expect(op.responses['403']?.description, name).toContain('CROSS_SITE_REQUEST');
        else expect(op.responses['403'], name).toBeUndefined();
      }
    }
    const logout = (buildOpenApiDocument('account') as Doc).paths['/api/logout']?.get as Operation & {
      summary: string;
    };
    expect(logout.summary).toContain('From another site');
  });
});
