import { Writable } from 'node:stream';
import { IDENTITY_HEADER, type WorkspaceRole } from '@pagecast/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { requireActor } from './actor';
import { createHttpApp, type Listening, listen } from './http';
import { identityMiddleware, signDeviceIdentityHeader, signIdentityHeader } from './identity';

const secret = 'a'.repeat(40);
const logger = pino({ level: 'silent' }, new Writable({ write: (_c, _e, done) => done() }));

describe('requireActor (through an app routed as the route table says)', () => {
  let server: Listening;
  /** how many times a handler got past requireActor */
  let ran = 0;

  beforeAll(async () => {
    const { app, finish } = createHttpApp({ name: 'actor-test', logger });
    app.use(identityMiddleware(secret));
    // GET /api/files is files.read in the route table, POST /api/playlists playlists.write
    app.get('/api/files', (req, res) => {
      const actor = requireActor(req, 'files.read');
      ran++;
      res.json(actor);
    });
    app.post('/api/playlists', (req, res) => {
      const actor = requireActor(req, 'playlists.write');
      ran++;
      res.json(actor);
    });
    // a handler asking for another action than its route's (DELETE /api/playlists/:id is playlists.write)
    app.delete('/api/playlists/:id', (req, res) => {
      res.json(requireActor(req, 'playlists.read'));
    });
    // a path the route table does not hold (an internal call): only the action decides
    app.get('/internal/thing', (req, res) => {
      res.json(requireActor(req, 'billing.spend'));
    });
    finish();
    server = await listen(app, 0, '127.0.0.1');
  });
  afterAll(() => server.close());
  beforeEach(() => {
    ran = 0;
  });

  const as = (who: { userId: string; workspaceId?: string; role?: WorkspaceRole }) => ({
    [IDENTITY_HEADER]: signIdentityHeader({ sessionId: `s-${who.userId}`, ...who }, secret),
  });
  const call = async (method: string, path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}${path}`, { method, headers });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('anonymous: 401 UNAUTHORIZED; a paired display: 403 DEVICE_NOT_ALLOWED; the handler never runs', async () => {
    expect(await call('GET', '/api/files')).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    const device = signDeviceIdentityHeader({ deviceId: 'd1', screenId: 'sc1', ownerId: 'u1' }, secret);
    expect(await call('POST', '/api/playlists', { [IDENTITY_HEADER]: device })).toMatchObject({
      status: 403,
      body: { code: 'DEVICE_NOT_ALLOWED' },
    });
    expect(ran).toBe(0);
  });

  it('an identity naming no workspace acts in its own, as owner, and may do anything there', async () => {
    const own = { userId: 'u1', sessionId: 's-u1', workspaceId: 'u1', role: 'owner' };
    expect(await call('GET', '/api/files', as({ userId: 'u1' }))).toEqual({ status: 200, body: own });
    expect(await call('POST', '/api/playlists', as({ userId: 'u1' }))).toEqual({ status: 200, body: own });
    expect(await call('GET', '/internal/thing', as({ userId: 'u1' }))).toEqual({ status: 200, body: own });
  });

  it("a viewer in another's workspace reads there, and a write is 403 FORBIDDEN_ROLE before the handler runs", async () => {
    const viewer = as({ userId: 'u2', workspaceId: 'w1', role: 'viewer' });
    expect(await call('GET', '/api/files', viewer)).toEqual({
      status: 200,
      body: { userId: 'u2', sessionId: 's-u2', workspaceId: 'w1', role: 'viewer' },
    });
    expect(ran).toBe(1);
    const write = await call('POST', '/api/playlists', viewer);
    expect(write).toMatchObject({
      status: 403,
      body: { code: 'FORBIDDEN_ROLE', details: { action: 'playlists.write', role: 'viewer' } },
    });
    expect(ran).toBe(1);
  });

  it('an editor writes content there; spending the owner points is refused to an editor, allowed to an admin', async () => {
    const editor = as({ userId: 'u3', workspaceId: 'w1', role: 'editor' });
    expect(await call('POST', '/api/playlists', editor)).toMatchObject({
      status: 200,
      body: { userId: 'u3', workspaceId: 'w1', role: 'editor' },
    });
    expect(await call('GET', '/internal/thing', editor)).toMatchObject({
      status: 403,
      body: { code: 'FORBIDDEN_ROLE' },
    });
    const admin = as({ userId: 'u4', workspaceId: 'w1', role: 'admin' });
    expect(await call('GET', '/internal/thing', admin)).toMatchObject({ status: 200, body: { role: 'admin' } });
  });

  it("'owner' of someone else's workspace is refused, even for a read", async () => {
    const forged = as({ userId: 'u2', workspaceId: 'w1', role: 'owner' });
    expect(await call('GET', '/api/files', forged)).toMatchObject({ status: 403, body: { code: 'FORBIDDEN_ROLE' } });
    expect(ran).toBe(0);
  });

  it("a handler asking for another action than its route's is a 500, whoever calls", async () => {
    expect((await call('DELETE', '/api/playlists/p1', as({ userId: 'u1' }))).status).toBe(500);
    expect((await call('DELETE', '/api/playlists/p1')).status).toBe(500);
  });
});
