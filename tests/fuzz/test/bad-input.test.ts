// Our own hostile cases over every route of the contracts' table (routes added later are covered as they come),
// through the gateway as a signed-in member (a paired display on the display's own routes) and directly at the owning service: a body that is not encoded as its
// Content-Encoding says, and a path whose %-escapes do not decode. Each must answer 400 MALFORMED_REQUEST with an
// error body exactly as the published schema says (no extra fields), never cached, never a 5xx. Every answer of a
// route that may depend on the member is Cache-Control: no-store.
import { apiRoutes, ErrorBody, type RouteDef } from '@pagecast/contracts';
import { signIdentityHeader } from '@pagecast/service-kit';
import { afterAll, describe, expect, inject, it } from 'vitest';

const target = inject('fuzz');
const encodings = ['gzip', 'br', 'deflate'] as const;
/** not what the header says: plain text, and a gzip header cut short */
const notEncoded = [Buffer.from('{"title":"not compressed at all"}'), Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00])];
const brokenEscapes = ['%ff', '%E0%A4%A', '%', '%zz'];
const counts = { requests: 0, started: Date.now() };

afterAll(() => {
  console.log(
    `[bad-input] ${apiRoutes.length} routes, ${counts.requests} requests, ${((Date.now() - counts.started) / 1000).toFixed(1)} s`,
  );
});

const paramNames = (route: RouteDef) => [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
const pathWith = (route: RouteDef, values: Record<string, string>) =>
  route.path.replace(/:(\w+)/g, (_, name: string) => values[name] ?? 'x');

type Via = 'gateway' | 'service';
function send(via: Via, route: RouteDef, path: string, init: { headers?: Record<string, string>; body?: Buffer }) {
  counts.requests += 1;
  const base = via === 'gateway' ? target.baseUrl : target.services[route.service];
  if (!base) throw new Error(`no URL for ${route.service}`);
  const identity: Record<string, string> =
    via === 'gateway'
      ? { cookie: route.auth === 'device' ? target.deviceCookie : target.cookie }
      : {
          'x-pagecast-identity': signIdentityHeader(
            { userId: target.userId, sessionId: target.sessionId },
            target.internalSecret,
          ),
        };
  return fetch(`${base}${path}`, {
    method: route.method.toUpperCase(),
    headers: { accept: 'application/json', ...identity, ...init.headers },
    body: init.body ? new Uint8Array(init.body) : undefined,
    redirect: 'manual',
  });
}

async function expectMalformed(res: Response, what: string, method = 'get') {
  const text = await res.text();
  expect(res.status, `${what}: ${text}`).toBe(400);
  expect(res.headers.get('cache-control'), what).toBe('no-store');
  // an answer to HEAD has no body (the resumable upload's offset is a HEAD route)
  if (method === 'head') return;
  const parsed = ErrorBody.strict().safeParse(JSON.parse(text));
  expect(parsed.success, `${what}: body outside the published error schema: ${text}`).toBe(true);
  expect(parsed.data?.code, what).toBe('MALFORMED_REQUEST');
}

describe('every route of the contracts: bad input is 400 MALFORMED_REQUEST, through the gateway and directly', () => {
  it('the table is not empty and every service is reachable', () => {
    expect(apiRoutes.length).toBeGreaterThan(20);
    for (const route of apiRoutes) expect(target.services[route.service], route.service).toBeDefined();
  });

  it.each(apiRoutes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))('%s', async (_name, route) => {
    const params = paramNames(route);
    // a POST or PUT without a declared body still gets one from a hostile client
    const takesBody = Boolean(route.body || route.multipart || route.method === 'post' || route.method === 'put');
    for (const via of ['gateway', 'service'] as const) {
      // Broken escapes in the query are the route's to judge (qs keeps them as text): any answer but a 5xx, and an
      // error only in the published shape. Not on logout, which would end the member's session for what follows.
      if (route.path !== '/api/logout') {
        const path = `${pathWith(route, {})}?q=%ff&%E0%A4%A=1&limit=%`;
        const res = await send(via, route, path, {
          headers: takesBody ? { 'content-type': 'application/json' } : {},
          body: takesBody ? Buffer.from('{}') : undefined,
        });
        const text = await res.text();
        expect(res.status, `${via} ${route.method} ${path}: ${text}`).toBeLessThan(500);
        // whatever the answer, if it may depend on the member no cache may keep it (page images say their own)
        if (route.auth !== 'public' && !res.headers.get('content-type')?.startsWith('image/')) {
          expect(res.headers.get('cache-control'), `${via} ${route.method} ${path}`).toBe('no-store');
        }
        if (res.status >= 400 && route.method !== 'head' && res.headers.get('content-type')?.includes('json')) {
          expect(ErrorBody.strict().safeParse(JSON.parse(text)).success, `${via} ${path}: ${text}`).toBe(true);
        }
      }
      for (const param of params) {
        for (const bad of brokenEscapes) {
          const path = pathWith(route, { [param]: bad });
          await expectMalformed(await send(via, route, path, {}), `${via} ${route.method} ${path}`, route.method);
        }
      }
      if (!takesBody) continue;
      const contentType = route.multipart ? 'multipart/form-data; boundary=pagecast-fuzz' : 'application/json';
      for (const encoding of encodings) {
        for (const body of notEncoded) {
          const res = await send(via, route, pathWith(route, {}), {
            headers: { 'content-type': contentType, 'content-encoding': encoding },
            body,
          });
          await expectMalformed(res, `${via} ${route.method} ${route.path} ${encoding} ${body.toString('hex', 0, 6)}`);
        }
      }
    }
  });
});
