// The gateway refuses a role that lacks a route's action before proxying (403 FORBIDDEN_ROLE, nothing reaches the
// service); a caller with no workspace named acts as the owner of their own and passes as before.
import type { Server } from 'node:http';
import { IDENTITY_HEADER, type WorkspaceRole } from '@pagecast/contracts';
import { verifyIdentityHeader } from '@pagecast/service-kit';
import express from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mountApi } from '../src/api-routes';
import type { EventsHub } from '../src/events';
import type { createServiceProxy } from '../src/proxy';
import type { ActingIdentity } from '../src/role-check';
import { closeServer, listen } from './support';

const secret = 'g'.repeat(40);
/** what the proxy was handed: service, path and the identity header's content */
let proxied: Array<{ service: string; path: string; identity: unknown }> = [];
let server: Server;
let url: string;

/** Who calls, as the session and workspace resolution leave it on res.locals (a test header names them here). */
function fakeIdentify(req: express.Request, res: express.Response, next: express.NextFunction) {
  const who = req.headers['x-test-who'];
  if (typeof who === 'string') res.locals.identity = JSON.parse(who) as ActingIdentity;
  next();
}

beforeAll(async () => {
  const app = express();
  app.use(fakeIdentify);
  const proxy = (async (service, req, res) => {
    proxied.push({
      service,
      path: req.url ?? '',
      identity: verifyIdentityHeader(req.headers[IDENTITY_HEADER] as string, secret),
    });
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  }) as ReturnType<typeof createServiceProxy>;
  mountApi(app, { events: {} as EventsHub, proxy, internalSecret: secret, clearCookie: 'pc_session=; Max-Age=0' });
  ({ server, url } = await listen(app));
});
afterAll(() => closeServer(server));
beforeEach(() => {
  proxied = [];
});

const call = async (
  method: string,
  path: string,
  who?: { userId: string; workspaceId?: string; role?: WorkspaceRole },
) => {
  const headers: Record<string, string> = who ? { 'x-test-who': JSON.stringify({ sessionId: 's1', ...who }) } : {};
  const res = await fetch(`${url}${path}`, { method, headers });
  return { status: res.status, body: (await res.json()) as { code?: string } };
};

describe('the role check before proxying', () => {
  it('the owner in their own workspace (nothing named) passes everywhere, as before', async () => {
    expect((await call('POST', '/api/playlists', { userId: 'u1' })).status).toBe(200);
    expect((await call('POST', '/api/membership/upgrade', { userId: 'u1' })).status).toBe(200);
    expect(proxied.map((p) => p.path)).toEqual(['/api/playlists', '/api/membership/upgrade']);
    expect(proxied[0]?.identity).toMatchObject({ userId: 'u1' });
  });

  it("a viewer reads another's workspace; a write is 403 FORBIDDEN_ROLE and never reaches the service", async () => {
    const viewer = { userId: 'u2', workspaceId: 'w1', role: 'viewer' as const };
    expect((await call('GET', '/api/playlists', viewer)).status).toBe(200);
    expect(proxied).toHaveLength(1);
    expect(proxied[0]?.identity).toMatchObject({ userId: 'u2', workspaceId: 'w1', role: 'viewer' });
    for (const [method, path] of [
      ['POST', '/api/playlists'],
      ['DELETE', '/api/files/f1'],
      ['POST', '/api/screens/takeovers'],
      ['POST', '/api/marketplace/purchase/f1'],
    ] as const) {
      const answer = await call(method, path, viewer);
      expect(answer, `${method} ${path}`).toEqual({
        status: 403,
        body: { code: 'FORBIDDEN_ROLE', message: expect.any(String) },
      });
    }
    expect(proxied).toHaveLength(1);
  });

  it('a broadcaster starts a takeover but edits no playlist; an editor edits but spends no points', async () => {
    const broadcaster = { userId: 'u3', workspaceId: 'w1', role: 'broadcaster' as const };
    expect((await call('POST', '/api/screens/takeovers', broadcaster)).status).toBe(200);
    expect((await call('PUT', '/api/playlists/p1/items', broadcaster)).status).toBe(403);
    const editor = { userId: 'u4', workspaceId: 'w1', role: 'editor' as const };
    expect((await call('PUT', '/api/playlists/p1/items', editor)).status).toBe(200);
    expect((await call('POST', '/api/membership/upgrade', editor)).body.code).toBe('FORBIDDEN_ROLE');
    expect(proxied.map((p) => p.path)).toEqual(['/api/screens/takeovers', '/api/playlists/p1/items']);
  });

  it('personal calls pass for any role: the person acts on their own account', async () => {
    const viewer = { userId: 'u2', workspaceId: 'w1', role: 'viewer' as const };
    expect((await call('PUT', '/api/user/profile', viewer)).status).toBe(200);
  });

  it('a visitor on an open route is not judged by role (the route auth decides)', async () => {
    expect((await call('POST', '/api/auth/register')).status).toBe(200);
    expect(proxied).toHaveLength(1);
  });
});
