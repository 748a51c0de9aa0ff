import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import zlib from 'node:zlib';
import { verifyIdentityHeader } from '@pagecast/service-kit';
import express from 'express';
import { testEnv } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../src/server';
import { catalogueHints, localPlayerManifest, playerHints, REMOTES_HINT } from '../src/static';
import {
  closeServer,
  cookieHeader,
  listen,
  type Seen,
  createKeys,
  type Keys,
  makeStaticTree,
  publishRevocation,
  startEchoService,
  startFakeAccount,
  startGateway,
  waitFor,
} from './support';

const SECRET = testEnv().INTERNAL_SECRET;

let keys: Keys;
let account: Awaited<ReturnType<typeof startFakeAccount>>;
let files: Awaited<ReturnType<typeof startEchoService>>;
let marketplace: Awaited<ReturnType<typeof startEchoService>>;
let billing: Awaited<ReturnType<typeof startEchoService>>;
let tree: ReturnType<typeof makeStaticTree>;
let gw: { gateway: Gateway; url: string; internalUrl: string };
const extra: Gateway[] = [];

let serviceEnv: Record<string, string>;

beforeAll(async () => {
  keys = await createKeys();
  account = await startFakeAccount(keys);
  files = await startEchoService('file-conversion');
  marketplace = await startEchoService('marketplace');
  billing = await startEchoService('billing');
  tree = makeStaticTree();
  serviceEnv = {
    ACCOUNT_URL: account.url,
    FILES_URL: files.url,
    MARKETPLACE_URL: marketplace.url,
    BILLING_URL: billing.url,
    STATIC_DIR: tree.staticDir,
    REMOTES_DIR: tree.root,
    SSE_HEARTBEAT_MS: '200',
  };
  gw = await startGateway(serviceEnv);
});

afterAll(async () => {
  await Promise.all([gw?.gateway.close(), ...extra.map((g) => g.close())]);
  await Promise.all([account?.close(), files?.close(), marketplace?.close(), billing?.close()]);
  tree?.cleanup();
});

/** public URL → internal listener URL (probes, metrics) of the gateways anotherGateway started */
const internalOf = new Map<string, string>();
async function anotherGateway(env: Record<string, string>) {
  const started = await startGateway({ ...serviceEnv, ...env });
  extra.push(started.gateway);
  internalOf.set(started.url, started.internalUrl);
  return started.url;
}

const newSession = async (opts: { exp?: number } = {}) => {
  const userId = `u-${randomUUID()}`;
  const sessionId = `s-${randomUUID()}`;
  const token = await keys.sign({ sub: userId, sid: sessionId, ...opts });
  return { userId, sessionId, token };
};

const lastSeen = (svc: { seen: Seen[] }, url: string) => svc.seen.filter((s) => s.url === url).at(-1);

/** Raw GET (no automatic decompression) returning status, headers and the body bytes. */
function rawGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

describe('identity', () => {
  it('a valid session cookie reaches the service as a verifiable identity header', async () => {
    const s = await newSession();
    const res = await fetch(`${gw.url}/api/files`, { headers: { cookie: cookieHeader(s.token) } });
    expect(res.status).toBe(200);
    const header = lastSeen(files, '/api/files')?.headers['x-pagecast-identity'];
    expect(typeof header).toBe('string');
    const identity = verifyIdentityHeader(header as string, SECRET);
    expect(identity).toMatchObject({ userId: s.userId, sessionId: s.sessionId });
    expect(verifyIdentityHeader(header as string, 'another-secret-another-secret-1234')).toBeNull();
  });

  it('a client-sent identity header never reaches a service', async () => {
    const forged = `${Buffer.from(JSON.stringify({ userId: 'victim', sessionId: 'x', iat: 1 })).toString('base64url')}.abc`;
    const marker = randomUUID();
    const json = JSON.stringify({ email: `${marker}@example.com`, password: 'x' });
    const res = await fetch(`${gw.url}/api/auth/local-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-pagecast-identity': forged },
      body: json,
    });
    expect(res.status).toBe(200);
    const seen = account.seen.filter((r) => r.url === '/api/auth/local-login').at(-1);
    expect(seen?.headers['x-pagecast-identity']).toBeUndefined();
    // The JSON body reached account byte for byte (the gateway parses no body).
    expect(seen?.sha256).toBe(createHash('sha256').update(json).digest('hex'));

    // With a real session, the forged value is replaced by the gateway's own.
    const s = await newSession();
    await fetch(`${gw.url}/api/files`, { headers: { cookie: cookieHeader(s.token), 'x-pagecast-identity': forged } });
    const header = lastSeen(files, '/api/files')?.headers['x-pagecast-identity'] as string;
    expect(header).not.toBe(forged);
    expect(verifyIdentityHeader(header, SECRET)?.userId).toBe(s.userId);
  });

  it('a session route without a cookie answers 401 without calling the service', async () => {
    const before = files.seen.length;
    const res = await fetch(`${gw.url}/api/files`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized' });
    expect(files.seen.length).toBe(before);
  });

  it('an expired token is refreshed once: new cookie, and the request passes', async () => {
    const past = Math.floor(Date.now() / 1000) - 1000;
    const s = await newSession({ exp: past + 900 });
    account.liveSessions.set(s.sessionId, s.userId);
    const calls = account.refreshCalls.length;
    const res = await fetch(`${gw.url}/api/files`, { headers: { cookie: cookieHeader(s.token) } });
    expect(res.status).toBe(200);
    expect(account.refreshCalls.length).toBe(calls + 1);
    const call = account.refreshCalls.at(-1);
    expect(call?.body).toEqual({ sid: s.sessionId });
    expect(verifyIdentityHeader(call?.headers['x-pagecast-identity'] as string, SECRET)).toMatchObject({
      userId: s.userId,
      sessionId: s.sessionId,
    });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('pc_session='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    const maxAge = Number(/Max-Age=(\d+)/.exec(cookie ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(3500); // the session's end, not the token's
    expect(maxAge).toBeLessThanOrEqual(3600);
    expect(cookie).not.toMatch(/Secure/); // PUBLIC_URL is http in tests
    const fresh = cookie?.split(';')[0]?.slice('pc_session='.length) ?? '';
    expect(fresh.length).toBeGreaterThan(20);
    expect(fresh).not.toBe(s.token);
    const header = lastSeen(files, '/api/files')?.headers['x-pagecast-identity'] as string;
    expect(verifyIdentityHeader(header, SECRET)?.sessionId).toBe(s.sessionId);

    // The new cookie is valid on its own: no further refresh.
    const again = await fetch(`${gw.url}/api/files`, { headers: { cookie: cookieHeader(fresh) } });
    expect(again.status).toBe(200);
    expect(account.refreshCalls.length).toBe(calls + 1);
  });

  it('an expired token whose session account refuses is cleared and treated as anonymous', async () => {
    const past = Math.floor(Date.now() / 1000) - 1000;
    const s = await newSession({ exp: past + 900 });
    const res = await fetch(`${gw.url}/api/files`, { headers: { cookie: cookieHeader(s.token) } });
    expect(res.status).toBe(401);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('pc_session='));
    expect(cookie).toMatch(/^pc_session=;.*Max-Age=0/);
  });

  it('a tampered token is anonymous', async () => {
    const s = await newSession();
    const [h, p, sig] = s.token.split('.');
    const payload = JSON.parse(Buffer.from(p as string, 'base64url').toString());
    const tampered = [
      h,
      Buffer.from(JSON.stringify({ ...payload, sub: 'someone-else' })).toString('base64url'),
      sig,
    ].join('.');
    const before = files.seen.length;
    const res = await fetch(`${gw.url}/api/files`, { headers: { cookie: cookieHeader(tampered) } });
    expect(res.status).toBe(401);
    expect(files.seen.length).toBe(before);
    expect(res.headers.getSetCookie().some((c) => /^pc_session=;/.test(c))).toBe(true);

    // On a public route the request passes, without identity.
    const marker = randomUUID();
    await fetch(`${gw.url}/api/auth/local-login?m=${marker}`, {
      method: 'POST',
      headers: { cookie: cookieHeader(tampered), 'content-type': 'application/json' },
      body: '{}',
    });
    const seen = account.seen.find((r) => r.url.includes(marker));
    expect(seen).toBeDefined();
    expect(seen?.headers['x-pagecast-identity']).toBeUndefined();
  });

  it('a token signed by another key is anonymous', async () => {
    const other = await createKeys();
    const token = await other.sign({ sub: 'u', sid: 's' });
    const res = await fetch(`${gw.url}/api/files`, { headers: { cookie: cookieHeader(token) } });
    expect(res.status).toBe(401);
  });
});

describe('revocations', () => {
  it('a revoked session announced on NATS is refused on the next request, and its cookie cleared', async () => {
    const s = await newSession();
    const ok = await fetch(`${gw.url}/api/files`, { headers: { cookie: cookieHeader(s.token) } });
    expect(ok.status).toBe(200);
    await publishRevocation(s.sessionId, s.userId);
    const res = await waitFor(async () => {
      const r = await fetch(`${gw.url}/api/files`, { headers: { cookie: cookieHeader(s.token) } });
      return r.status === 401 ? r : undefined;
    });
    expect(res.headers.getSetCookie().some((c) => /^pc_session=;/.test(c))).toBe(true);
  });

  it('a gateway started after a revocation still refuses that session', async () => {
    const s = await newSession();
    await publishRevocation(s.sessionId, s.userId);
    const url = await anotherGateway({});
    const before = files.seen.length;
    const res = await fetch(`${url}/api/files`, { headers: { cookie: cookieHeader(s.token) } });
    expect(res.status).toBe(401);
    expect(files.seen.length).toBe(before);
    // ... while a session that was not revoked still works there.
    const other = await newSession();
    const fine = await fetch(`${url}/api/files`, { headers: { cookie: cookieHeader(other.token) } });
    expect(fine.status).toBe(200);
  });

  it('a revocation ends the open live-update streams of that session', async () => {
    const s = await newSession();
    const res = await fetch(`${gw.url}/api/events`, { headers: { cookie: cookieHeader(s.token) } });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read(); // the stream is open
    await publishRevocation(s.sessionId, s.userId);
    const ended = await waitFor(async () => {
      const { done } = await reader.read();
      return done ? true : undefined;
    });
    expect(ended).toBe(true);
  });

  it('an expired token of a revoked session is not refreshed', async () => {
    const past = Math.floor(Date.now() / 1000) - 1000;
    const s = await newSession({ exp: past + 900 });
    account.liveSessions.set(s.sessionId, s.userId);
    await publishRevocation(s.sessionId, s.userId);
    await waitFor(async () => (gw.gateway.revocations.has(s.sessionId) ? true : undefined));
    const calls = account.refreshCalls.length;
    const res = await fetch(`${gw.url}/api/files`, { headers: { cookie: cookieHeader(s.token) } });
    expect(res.status).toBe(401);
    expect(account.refreshCalls.length).toBe(calls);
  });
});

describe('routing', () => {
  it('routes each prefix to its owning service', async () => {
    const s = await newSession();
    const headers = { cookie: cookieHeader(s.token) };
    const market = await fetch(`${gw.url}/api/marketplace?q=abc&page=1&limit=24`, { headers });
    expect((await market.json()).service).toBe('marketplace');
    const points = await fetch(`${gw.url}/api/points/history`, { headers });
    expect((await points.json()).service).toBe('billing');
    const user = await fetch(`${gw.url}/api/auth/user`, { headers });
    const body = await user.json();
    expect(body.service).toBe('account');
    expect(body.url).toBe('/api/auth/user');
    const page = await fetch(`${gw.url}/media/abc.webp`);
    expect((await page.json()).service).toBe('file-conversion');
    const nested = await fetch(`${gw.url}/media/pages/abc.webp`, { headers });
    const nestedBody = await nested.json();
    expect(nestedBody.service).toBe('file-conversion');
    expect(verifyIdentityHeader(nestedBody.headers['x-pagecast-identity'], SECRET)?.userId).toBe(s.userId);
  });

  it("a video's Range request is decided by file-conversion with the caller's identity; its bytes are not proxied", async () => {
    const s = await newSession();
    const id = randomUUID();
    const res = await fetch(`${gw.url}/media/video/${id}`, {
      headers: { cookie: cookieHeader(s.token), range: 'bytes=1000-1999', 'if-range': '"abc"' },
    });
    // this echo's answer is no access decision: the gateway says so rather than guess
    expect(res.status).toBe(502);
    const check = lastSeen(files, `/internal/video-access/${id}`);
    expect(verifyIdentityHeader(check?.headers['x-pagecast-identity'] as string, SECRET)?.userId).toBe(s.userId);
    // the gateway reads the range from storage itself (media-video.ts): file-conversion never streams it
    expect(lastSeen(files, `/media/video/${id}`)).toBeUndefined();
  });

  it("a video on sale's preview clip needs a member's session; with one, file-conversion decides it", async () => {
    const id = randomUUID();
    const path = `/media/video/${id}/preview`;
    const anonymous = await fetch(`${gw.url}${path}`, { headers: { range: 'bytes=0-99' } });
    expect(anonymous.status).toBe(401);
    expect(lastSeen(files, `/internal/video-access/${id}/preview`)).toBeUndefined();
    const s = await newSession();
    await (await fetch(`${gw.url}${path}`, { headers: { cookie: cookieHeader(s.token), range: 'bytes=0-99' } })).text();
    const check = lastSeen(files, `/internal/video-access/${id}/preview`);
    expect(verifyIdentityHeader(check?.headers['x-pagecast-identity'] as string, SECRET)?.userId).toBe(s.userId);
    expect(lastSeen(files, path)).toBeUndefined();
  });

  it('an unknown /api path is 404 NOT_FOUND', async () => {
    const res = await fetch(`${gw.url}/api/no-such-thing`);
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('NOT_FOUND');
  });

  it('/api/login goes to the login screen; /api/logout reaches account and clears the cookie', async () => {
    const login = await fetch(`${gw.url}/api/login`, { redirect: 'manual' });
    expect(login.status).toBe(302);
    expect(login.headers.get('location')).toBe('/login');

    const s = await newSession();
    const logout = await fetch(`${gw.url}/api/logout`, {
      redirect: 'manual',
      headers: { cookie: cookieHeader(s.token) },
    });
    expect(logout.status).toBe(302);
    expect(logout.headers.get('location')).toBe('/');
    expect(logout.headers.getSetCookie().some((c) => /^pc_session=;.*Max-Age=0/.test(c))).toBe(true);
    const seen = account.seen.filter((r) => r.url === '/api/logout').at(-1);
    expect(verifyIdentityHeader(seen?.headers['x-pagecast-identity'] as string, SECRET)?.sessionId).toBe(s.sessionId);
  });

  it('a 5 MB upload streams through intact', async () => {
    const s = await newSession();
    const payload = randomBytes(5 * 1024 * 1024);
    const res = await fetch(`${gw.url}/api/files/upload`, {
      method: 'POST',
      headers: { cookie: cookieHeader(s.token), 'content-type': 'multipart/form-data; boundary=x' },
      body: payload,
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.bytes).toBe(payload.length);
    expect(body.sha256).toBe(createHash('sha256').update(payload).digest('hex'));
  });

  it("the resumable upload's tus calls pass with their methods, headers and bytes, and a stranger's site is refused", async () => {
    const s = await newSession();
    const tus = { cookie: cookieHeader(s.token), 'tus-resumable': '1.0.0' };
    const created = await fetch(`${gw.url}/api/files/uploads`, {
      method: 'POST',
      headers: { ...tus, 'upload-length': '2048', 'upload-metadata': 'filename YS5tcDQ=' },
    });
    expect(created.status).toBe(200);
    const chunk = randomBytes(2048);
    const patch = await fetch(`${gw.url}/api/files/uploads/7c4a8d09-ca37-4b2b-9c4e-1b2f3a4d5e6f`, {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: chunk,
    });
    expect(patch.status).toBe(200);
    const seen = await patch.json();
    expect(seen).toMatchObject({ method: 'PATCH', bytes: 2048 });
    expect(seen.sha256).toBe(createHash('sha256').update(chunk).digest('hex'));
    expect(seen.headers).toMatchObject({ 'upload-offset': '0', 'tus-resumable': '1.0.0' });
    expect(verifyIdentityHeader(seen.headers['x-pagecast-identity'], SECRET)?.userId).toBe(s.userId);
    const head = await fetch(`${gw.url}/api/files/uploads/7c4a8d09-ca37-4b2b-9c4e-1b2f3a4d5e6f`, {
      method: 'HEAD',
      headers: tus,
    });
    expect(head.status).toBe(200);
    expect(files.seen.at(-1)).toMatchObject({
      method: 'HEAD',
      url: '/api/files/uploads/7c4a8d09-ca37-4b2b-9c4e-1b2f3a4d5e6f',
    });
    // a PATCH from another site's page changes nothing
    const before = files.seen.length;
    const cross = await fetch(`${gw.url}/api/files/uploads/7c4a8d09-ca37-4b2b-9c4e-1b2f3a4d5e6f`, {
      method: 'PATCH',
      headers: {
        ...tus,
        'sec-fetch-site': 'cross-site',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: chunk,
    });
    expect([cross.status, (await cross.json()).code]).toEqual([403, 'CROSS_SITE_REQUEST']);
    expect(files.seen.length).toBe(before);
    // without a session: 401, never reaching the service
    const anon = await fetch(`${gw.url}/api/files/uploads`, { method: 'POST', headers: { 'tus-resumable': '1.0.0' } });
    expect(anon.status).toBe(401);
    expect(files.seen.length).toBe(before);
  });

  it('an upstream that is down answers 503 JSON at once, not after the proxy timeout', async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(p));
      });
    });
    // a proxy timeout longer than the test's own: an answer that waited for it would fail the test by its timeout
    const url = await anotherGateway({ BILLING_URL: `http://127.0.0.1:${port}`, PROXY_TIMEOUT_MS: '600000' });
    const s = await newSession();
    const res = await fetch(`${url}/api/points/history`, { headers: { cookie: cookieHeader(s.token) } });
    // 503 is the refused connection's answer (a timed-out upstream is a 502)
    expect(res.status).toBe(503);
    expect((await res.json()).code).toBe('SERVICE_UNAVAILABLE');
  });

  it('an upstream that never answers gets a 502 JSON after the proxy timeout, not a hang', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((sock) => sockets.push(sock)); // accepts, never answers
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const url = await anotherGateway({ MARKETPLACE_URL: `http://127.0.0.1:${port}`, PROXY_TIMEOUT_MS: '500' });
      const s = await newSession();
      const res = await fetch(`${url}/api/marketplace`, { headers: { cookie: cookieHeader(s.token) } });
      // the request reached the silent upstream, and the answer is the proxy timeout's (502; a refused connection
      // is a 503); without the timeout the fetch would hang until the test's own timeout
      expect(sockets).toHaveLength(1);
      expect(res.status).toBe(502);
      expect((await res.json()).code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });
});

describe('the call that completes a resumable upload', () => {
  it('may take longer than the proxy timeout to answer (the service reads the whole upload back); others may not', async () => {
    // answers after 1.5 s, whatever the call
    const slow = express();
    slow.use((req, res) => {
      req.resume();
      setTimeout(() => res.json({ ok: true }), 1500);
    });
    const { server, url: slowUrl } = await listen(slow);
    try {
      const url = await anotherGateway({ FILES_URL: slowUrl, PROXY_TIMEOUT_MS: '500' });
      const s = await newSession();
      const headers = { cookie: cookieHeader(s.token), 'tus-resumable': '1.0.0' };
      const last = await fetch(`${url}/api/files/uploads/7c4a8d09-ca37-4b2b-9c4e-1b2f3a4d5e6f`, {
        method: 'PATCH',
        headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        body: randomBytes(1000),
      });
      expect(last.status).toBe(200);
      const other = await fetch(`${url}/api/files/uploads/7c4a8d09-ca37-4b2b-9c4e-1b2f3a4d5e6f`, {
        method: 'HEAD',
        headers,
      });
      expect(other.status).toBe(502);
    } finally {
      await closeServer(server);
    }
  });
});

describe('rate limits', () => {
  it('auth endpoints answer 429 RATE_LIMITED with Retry-After after N calls per address', async () => {
    const url = await anotherGateway({ RATE_LIMIT_AUTH_MAX: '3', RATE_LIMIT_API_MAX: '100' });
    const post = () =>
      fetch(`${url}/api/auth/local-login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
    for (let i = 0; i < 3; i++) expect((await post()).status).toBe(200);
    const limited = await post();
    expect(limited.status).toBe(429);
    const body = await limited.json();
    expect(body.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(body.details).toEqual({ retryAfterSeconds: Number(limited.headers.get('retry-after')) });
    // Other API calls are still under the general limit.
    expect((await fetch(`${url}/api/auth/user`)).status).toBe(200);
  });

  it('the general /api limit applies to every call', async () => {
    const url = await anotherGateway({ RATE_LIMIT_API_MAX: '4' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await fetch(`${url}/api/auth/user`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    // Static files are not counted.
    expect((await fetch(`${url}/remotes.json`)).status).toBe(200);
  });
});

describe('front end', () => {
  it('/remotes.json lists the default manifests, uncached', async () => {
    const res = await fetch(`${gw.url}/remotes.json`);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    // the lean containers, which use the shell's federation runtime (packages/federation: remoteLeanConfig)
    expect(await res.json()).toEqual({
      mf_files: '/remotes/files/mf-manifest.lean.json',
      mf_marketplace: '/remotes/marketplace/mf-manifest.lean.json',
      mf_player: '/remotes/player/mf-manifest.lean.json',
    });
  });

  it('REMOTES overrides /remotes.json and the CSP allows the remote origin', async () => {
    const url = await anotherGateway({
      REMOTES: JSON.stringify({ mf_player: 'http://localhost:3003/mf-manifest.json' }),
    });
    const res = await fetch(`${url}/remotes.json`);
    expect(await res.json()).toEqual({
      mf_files: '/remotes/files/mf-manifest.lean.json',
      mf_marketplace: '/remotes/marketplace/mf-manifest.lean.json',
      mf_player: 'http://localhost:3003/mf-manifest.json',
    });
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src [^;]*http:\/\/localhost:3003/);
    expect(csp).toMatch(/connect-src [^;]*http:\/\/localhost:3003/);
    const defaultCsp = (await fetch(`${gw.url}/remotes.json`)).headers.get('content-security-policy') ?? '';
    expect(defaultCsp).not.toMatch(/localhost:3003/);
    expect(defaultCsp).toMatch(/frame-ancestors 'none'/);
    expect(defaultCsp).toMatch(/img-src 'self' data: blob:/);
  });

  it('the CSP allows the card provider only from STRIPE_JS_URL: Stripe and its frames, or one stand-in origin', async () => {
    const header = async (url: string) =>
      (await fetch(`${url}/remotes.json`)).headers.get('content-security-policy') ?? '';
    const directive = (csp: string, name: string) =>
      csp
        .split(';')
        .find((d) => d.trim().startsWith(`${name} `))
        ?.trim();

    const real = await header(await anotherGateway({ STRIPE_JS_URL: 'https://js.stripe.com/v3/' }));
    expect(directive(real, 'script-src')).toBe("script-src 'self' https://js.stripe.com");
    expect(directive(real, 'connect-src')).toBe("connect-src 'self' https://api.stripe.com");
    expect(directive(real, 'frame-src')).toBe('frame-src https://js.stripe.com https://hooks.stripe.com');

    const local = await header(await anotherGateway({ STRIPE_JS_URL: 'http://127.0.0.1:12999/js.stripe.com/v3/' }));
    expect(directive(local, 'script-src')).toBe("script-src 'self' http://127.0.0.1:12999");
    expect(directive(local, 'connect-src')).toBe("connect-src 'self' http://127.0.0.1:12999");
    expect(directive(local, 'frame-src')).toBe("frame-src 'none'");
    expect(local).not.toMatch(/stripe\.com/);
  });

  it('hashed files are immutable; index, manifest and remoteEntry are revalidated', async () => {
    const hashed = await fetch(`${gw.url}/main.3f9a1c2e.js`);
    expect(hashed.status).toBe(200);
    expect(hashed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const index = await fetch(`${gw.url}/`, { headers: { accept: 'text/html' } });
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(await index.text()).toContain('shell-index');
    const manifest = await fetch(`${gw.url}/remotes/files/mf-manifest.json`);
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    expect(manifest.headers.get('access-control-allow-origin')).toBe('*');
    const entry = await fetch(`${gw.url}/remotes/files/remoteEntry.js`);
    expect(entry.headers.get('cache-control')).toBe('no-cache');
    for (const lean of ['mf-manifest.lean.json', 'remoteEntry.lean.js']) {
      const res = await fetch(`${gw.url}/remotes/files/${lean}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
    const chunk = await fetch(`${gw.url}/remotes/files/static/js/412.a1b2c3d4.js`);
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${gw.url}/remotes/files/nope.js`)).status).toBe(404);
  });

  it('negotiates gzip and brotli for static files', async () => {
    const gz = await rawGet(`${gw.url}/main.3f9a1c2e.js`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(tree.big);
    // a file the build wrote no brotli copy of (the next test covers those)
    const br = await rawGet(`${gw.url}/remotes/files/static/js/412.a1b2c3d4.js`, { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(tree.big);
    const plain = await rawGet(`${gw.url}/main.3f9a1c2e.js`, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(tree.big);
  });

  it("sends the build's brotli copy to a browser that accepts brotli, with the file's type and cache policy", async () => {
    const br = await rawGet(`${gw.url}/main.3f9a1c2e.js`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(tree.prebuilt);
    expect(br.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    // gzip only: the file itself, compressed on the way (the copy is never sent to a browser that cannot read it)
    const gz = await rawGet(`${gw.url}/main.3f9a1c2e.js`, { 'accept-encoding': 'gzip' });
    expect(zlib.gunzipSync(gz.body).toString()).toBe(tree.big);
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    // a remote's entry keeps its revalidation and cross-origin headers
    const entry = await rawGet(`${gw.url}/remotes/files/remoteEntry.js`, { 'accept-encoding': 'br' });
    expect(zlib.brotliDecompressSync(entry.body).toString()).toBe(tree.prebuilt);
    expect(entry.headers['cache-control']).toBe('no-cache');
    expect(entry.headers['access-control-allow-origin']).toBe('*');
    // no copy: compressed on the way as before; and no way out of the folder
    const chunk = await rawGet(`${gw.url}/remotes/files/static/js/412.a1b2c3d4.js`, { 'accept-encoding': 'br' });
    expect(zlib.brotliDecompressSync(chunk.body).toString()).toBe(tree.big);
    const outside = await rawGet(`${gw.url}/remotes/files/..%2f..%2fshell%2fdist%2fmain.3f9a1c2e.js`, {
      'accept-encoding': 'br',
    });
    expect(outside.status).not.toBe(200);
  });

  it('falls back to index.html for app paths, not for assets or /api', async () => {
    const deep = await fetch(`${gw.url}/playbook/deep/path?tab=2`, { headers: { accept: 'text/html' } });
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain('shell-index');
    expect((await fetch(`${gw.url}/missing.3f9a1c2e.js`)).status).toBe(404);
    const api = await fetch(`${gw.url}/api/unknown/path`, { headers: { accept: 'text/html' } });
    expect(api.status).toBe(404);
    expect((await api.json()).code).toBe('NOT_FOUND');
  });

  it('marks the shell page signed out when the request has no session cookie, and only then', async () => {
    const hint = '<meta name="pc-session" content="none" />';
    const visitor = await fetch(`${gw.url}/register`, { headers: { accept: 'text/html' } });
    const visitorPage = await visitor.text();
    expect(visitorPage).toContain(hint);
    expect(visitorPage.indexOf(hint)).toBeLessThan(visitorPage.indexOf('</head>'));
    expect(visitor.headers.get('vary')).toContain('Cookie');
    expect(visitor.headers.get('cache-control')).toBe('no-cache');
    // a cookie that is there is not judged here (it may be expired): the shell asks /api/auth/user
    const member = await fetch(`${gw.url}/`, { headers: { accept: 'text/html', cookie: 'pc_session=whatever' } });
    const memberPage = await member.text();
    expect(memberPage).toContain('shell-index');
    expect(memberPage).not.toContain('pc-session');
    // revalidation still answers 304 for an unchanged page (max-age=0, as a browser revalidating its copy sends:
    // Node's fetch would add `no-cache` to a conditional request, which a server rightly answers in full)
    const again = await fetch(`${gw.url}/register`, {
      headers: {
        accept: 'text/html',
        'if-none-match': visitor.headers.get('etag') ?? '',
        'cache-control': 'max-age=0',
      },
    });
    expect(again.status).toBe(304);
  });

  it("sends a visitor the page prerendered in the browser's language, or in the one it remembers", async () => {
    const page = async (path: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${gw.url}${path}`, { headers: { accept: 'text/html', ...headers } });
      expect(res.status).toBe(200);
      return { text: await res.text(), vary: res.headers.get('vary') ?? '' };
    };
    const english = await page('/login', { 'accept-language': 'en-US,en;q=0.9,ja;q=0.5' });
    expect(english.text).toContain('prerendered-en-login');
    expect(english.text).toContain('<meta name="pc-session" content="none" />'); // still marked signed out
    // a shared cache must keep one copy per language and per cookie
    expect(english.vary).toContain('Accept-Language');
    expect(english.vary).toContain('Cookie');
    // the language chosen on the site (its cookie) wins over the browser's list
    expect((await page('/login', { 'accept-language': 'en', cookie: 'pc_lang=ja' })).text).toContain(
      'prerendered-ja-login',
    );
    // a cookie naming no supported language is ignored
    expect((await page('/login', { 'accept-language': 'en', cookie: 'pc_lang=xx' })).text).toContain(
      'prerendered-en-login',
    );
    // no supported language in the list: Japanese, the site's own
    expect((await page('/login', { 'accept-language': 'de-DE' })).text).toContain('prerendered-ja-login');
    // no prerendered page for that language (or that path): the page the scripts draw
    expect((await page('/login', { 'accept-language': 'fr-FR' })).text).toContain('shell-index');
    expect((await page('/register', { 'accept-language': 'en' })).text).toContain('shell-index');
    // a query may change the page, and a member's page is never a visitor's
    expect((await page('/login?next=%2Ffiles', { 'accept-language': 'en' })).text).toContain('shell-index');
    const member = await page('/login', { 'accept-language': 'en', cookie: 'pc_session=whatever' });
    expect(member.text).toContain('shell-index');
    expect(member.text).not.toContain('pc-session');
  });

  it("sends a signage page with the player's loading frame in the viewer's language, member or not, any query", async () => {
    const page = async (path: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${gw.url}${path}`, { headers: { accept: 'text/html', ...headers } });
      expect(res.status).toBe(200);
      return res.text();
    };
    const member = await page('/signage/abc123?playlist=p1&index=2&autoplay=true', {
      cookie: 'pc_session=whatever',
      'accept-language': 'en-US,en;q=0.9',
    });
    expect(member).toContain('signage-frame-en');
    expect(member).not.toContain('pc-session'); // a member's page is not marked signed out
    expect(member).toContain('href="/remotes/player/mf-manifest.lean.json" as="fetch"'); // with the player's hints
    expect(await page('/signage/abc123/', { 'accept-language': 'de' })).toContain('signage-frame-ja');
    expect(await page('/signage/abc123', { cookie: 'pc_lang=en', 'accept-language': 'ja' })).toContain(
      'signage-frame-en',
    );
    // a language without a frame in the build, and the display's page (not the signage player): the page the
    // scripts draw
    expect(await page('/signage/abc123', { 'accept-language': 'fr' })).toContain('shell-index');
    expect(await page('/screen', { 'accept-language': 'en' })).toContain('shell-index');
    expect(await page('/signage', { 'accept-language': 'en' })).not.toContain('signage-frame');
  });

  it("lists a player page's remote in its head: the manifest always, the entry and route chunks when served here", async () => {
    const built = {
      metaData: { remoteEntry: { name: 'remoteEntry.lean.js', path: '' } },
      exposes: [
        {
          name: 'routes',
          assets: { js: { sync: ['851.3c81845d.js', 'routes.377fe8d4.js'] }, css: { sync: ['routes.eeb9f590.css'] } },
        },
      ],
    };
    const here = playerHints('/remotes/player/mf-manifest.lean.json', built);
    expect(here).toContain(
      '<link rel="preload" href="/remotes/player/mf-manifest.lean.json" as="fetch" crossorigin="anonymous">',
    );
    for (const file of ['remoteEntry.lean.js', '851.3c81845d.js', 'routes.377fe8d4.js']) {
      expect(here).toContain(`<link rel="preload" href="/remotes/player/${file}" as="script" fetchpriority="low">`);
    }
    expect(here).toContain('<link rel="preload" href="/remotes/player/routes.eeb9f590.css" as="style">');
    // a player served from another origin: its manifest only (the gateway does not read another server's build)
    const elsewhere = playerHints('https://player.example.test/mf-manifest.json', built);
    expect(elsewhere).toBe(
      '<link rel="preload" href="https://player.example.test/mf-manifest.json" as="fetch" crossorigin="anonymous">',
    );
    // not built: the manifest only
    expect(playerHints('/remotes/player/mf-manifest.lean.json', undefined)).not.toContain('as="script"');
    // either manifest of the player this gateway serves (REMOTES may name the self-contained one): read from its build
    expect(localPlayerManifest('/remotes/player/mf-manifest.lean.json')).toBe('mf-manifest.lean.json');
    expect(localPlayerManifest('/remotes/player/mf-manifest.json')).toBe('mf-manifest.json');
    expect(playerHints('/remotes/player/mf-manifest.json', built)).toContain(
      '<link rel="preload" href="/remotes/player/remoteEntry.lean.js" as="script"',
    );
    for (const other of [
      'https://player.example.test/remotes/player/mf-manifest.json',
      '/remotes/player/../files/mf-manifest.json',
      '/remotes/files/mf-manifest.json',
      '/remotes/player/mf-stats.json',
    ]) {
      expect(localPlayerManifest(other), other).toBeUndefined();
    }
    // through the gateway: player pages get them, other pages do not
    const get = async (p: string) =>
      (await fetch(`${gw.url}${p}`, { headers: { accept: 'text/html', cookie: 'pc_session=whatever' } })).text();
    expect(await get('/signage/abc123')).toContain('href="/remotes/player/mf-manifest.lean.json" as="fetch"');
    expect(await get('/screen')).toContain('href="/remotes/player/mf-manifest.lean.json" as="fetch"');
    expect(await get('/files')).not.toContain('mf-manifest.json');
  });

  it("preloads the remotes' list and the catalogue of the visitor's language from the page's head", async () => {
    // the catalogue from the build's list; Japanese is bundled
    const list = { en: ['catalogue-en.0a1b2c3d4e.js'] };
    expect(catalogueHints(list, 'en')).toBe(
      '<link rel="preload" href="/catalogue-en.0a1b2c3d4e.js" as="script" fetchpriority="low">',
    );
    expect(catalogueHints(list, 'ja')).toBe('');
    expect(catalogueHints(undefined, 'en')).toBe('');
    // through the gateway: every page of the app, a member's or a visitor's, prerendered or not
    const get = async (p: string, headers: Record<string, string>) =>
      (await fetch(`${gw.url}${p}`, { headers: { accept: 'text/html', ...headers } })).text();
    const member = await get('/signage/abc123', { cookie: 'pc_session=whatever', 'accept-language': 'fr' });
    expect(member).toContain(`${REMOTES_HINT}<link rel="preload" href="/catalogue-fr.5f6a7b8c9d.js" as="script"`);
    expect(member.indexOf(REMOTES_HINT)).toBeLessThan(member.indexOf('</head>'));
    const visitor = await get('/login', { 'accept-language': 'en' });
    expect(visitor).toContain('prerendered-en-login');
    expect(visitor).toContain(REMOTES_HINT);
    expect(visitor).toContain('href="/catalogue-en.0a1b2c3d4e.js" as="script"');
    const japanese = await get('/files', { 'accept-language': 'ja' });
    expect(japanese).toContain(REMOTES_HINT);
    expect(japanese).not.toContain('catalogue-');
  });

  it('a remote or shell that is not built answers a clear 503, and the gateway keeps running', async () => {
    const player = await fetch(`${gw.url}/remotes/player/mf-manifest.json`);
    expect(player.status).toBe(503);
    expect(await player.text()).toContain('npm run build');
    const url = await anotherGateway({ STATIC_DIR: `${tree.root}/nowhere` });
    const index = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
    expect(index.status).toBe(503);
    expect(await index.text()).toContain('npm run build');
    expect((await fetch(`${internalOf.get(url)}/healthz`)).status).toBe(200);
  });
});

describe('gateway endpoints', () => {
  it('/api/events streams ready and heartbeats to a signed-in browser, 401 otherwise', async () => {
    expect((await fetch(`${gw.url}/api/events`)).status).toBe(401);
    const s = await newSession();
    const ctrl = new AbortController();
    const res = await fetch(`${gw.url}/api/events`, {
      headers: { cookie: cookieHeader(s.token) },
      signal: ctrl.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    const decoder = new TextDecoder();
    while (!text.includes(': heartbeat')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    expect(text).toMatch(/event: ready\ndata: \{"userId":"[^"]+"/);
    expect(text).toContain(': heartbeat');
    ctrl.abort();
  });

  it('/api/docs lists the four services and proxies their OpenAPI documents', async () => {
    const page = await fetch(`${gw.url}/api/docs`);
    const html = await page.text();
    for (const s of ['account', 'file-conversion', 'marketplace', 'billing']) {
      expect(html).toContain(`/api/docs/${s}/openapi.json`);
    }
    const doc = await fetch(`${gw.url}/api/docs/marketplace/openapi.json`);
    expect((await doc.json()).info.title).toBe('marketplace');
    expect((await fetch(`${gw.url}/api/docs/nope/openapi.json`)).status).toBe(404);
  });

  it('health, readiness and metrics on the internal listener, which counts the public requests', async () => {
    expect((await fetch(`${gw.internalUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${gw.internalUrl}/readyz`)).status).toBe(200);
    const rid = await fetch(`${gw.url}/api/docs`, { headers: { 'x-request-id': 'req-abc-123' } });
    expect(rid.headers.get('x-request-id')).toBe('req-abc-123');
    const metrics = await fetch(`${gw.internalUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/api\/docs"/);
  });

  it('the public port answers 404 to /metrics, /healthz and /readyz (they are internal)', async () => {
    for (const path of ['/metrics', '/healthz', '/readyz']) {
      // whatever the client accepts: a probe sends */*, which the app's pages would answer with a 200
      for (const accept of ['application/json', '*/*', 'text/html']) {
        const res = await fetch(`${gw.url}${path}`, { headers: { accept } });
        expect(res.status, `${path} ${accept}`).toBe(404);
        expect(await res.text(), path).not.toMatch(/# TYPE|"status"|<html/);
      }
    }
  });

  it('binds loopback unless HOST / INTERNAL_HOST say otherwise', async () => {
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a?.family === 'IPv4' && !a.internal)?.address;
    expect(external, 'this machine needs a non-loopback address for this test').toBeDefined();
    const connects = (host: string, port: string) =>
      new Promise<boolean>((done) => {
        const socket = net.connect({ host, port: Number(port) });
        socket.once('connect', () => {
          socket.destroy();
          done(true);
        });
        socket.once('error', () => done(false));
      });
    const url = await anotherGateway({});
    const internal = internalOf.get(url) as string;
    for (const u of [url, internal]) {
      const { port } = new URL(u);
      expect(await connects('127.0.0.1', port), u).toBe(true);
      expect(await connects(external as string, port), u).toBe(false);
    }
    const open = await anotherGateway({ HOST: '0.0.0.0' });
    expect(await connects(external as string, new URL(open).port)).toBe(true);
  });

  it('is not ready while the key set cannot be read', async () => {
    const url = await anotherGateway({ JWKS_URL: 'http://127.0.0.1:9/.well-known/jwks.json' });
    expect((await fetch(`${internalOf.get(url)}/readyz`)).status).toBe(503);
    // A session cannot be checked then: session routes say so rather than logging the user out.
    const s = await newSession();
    const res = await fetch(`${url}/api/files`, { headers: { cookie: cookieHeader(s.token) } });
    expect(res.status).toBe(503);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('pc_session='))).toBe(false);
  });

  it('the request id reaches the service', async () => {
    const marker = randomUUID();
    await fetch(`${gw.url}/api/auth/user?m=${marker}`, { headers: { 'x-request-id': `rid-${marker}` } });
    const seen = account.seen.find((r) => r.url.includes(marker));
    expect(seen?.headers['x-request-id']).toBe(`rid-${marker}`);
  });
});
