// Requests made by another site's pages: a navigation to /api/logout from another site lands on
// / and signs nobody out, and a state-changing call from another site is refused with 403 CROSS_SITE_REQUEST before
// any service sees it; our own pages, clients without a browser and the card provider's webhook keep working.
// The services around the gateway are the stand-ins of support.ts, which record every request that reaches them.
import { randomUUID } from 'node:crypto';
import { verifyIdentityHeader } from '@pagecast/service-kit';
import { testEnv } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../src/server';
import {
  cookieHeader,
  createKeys,
  type Keys,
  makeStaticTree,
  type Seen,
  startEchoService,
  startFakeAccount,
  startGateway,
} from './support';

const SECRET = testEnv().INTERNAL_SECRET;
const EVIL = 'https://evil.example.test';

/** request headers, as a browser (or not) would send them */
type Sent = Record<string, string>;

type Service = { seen: Seen[]; close(): Promise<void> };
let keys: Keys;
let account: Awaited<ReturnType<typeof startFakeAccount>>;
let services: Record<'files' | 'marketplace' | 'billing' | 'screens', Awaited<ReturnType<typeof startEchoService>>>;
let tree: ReturnType<typeof makeStaticTree>;
let gw: { gateway: Gateway; url: string };
let env: Record<string, string>;
const extra: Gateway[] = [];

beforeAll(async () => {
  keys = await createKeys();
  account = await startFakeAccount(keys);
  services = {
    files: await startEchoService('file-conversion'),
    marketplace: await startEchoService('marketplace'),
    billing: await startEchoService('billing'),
    screens: await startEchoService('screens'),
  };
  tree = makeStaticTree();
  env = {
    ACCOUNT_URL: account.url,
    FILES_URL: services.files.url,
    MARKETPLACE_URL: services.marketplace.url,
    BILLING_URL: services.billing.url,
    SCREENS_URL: services.screens.url,
    STATIC_DIR: tree.staticDir,
    REMOTES_DIR: tree.root,
  };
  gw = await startGateway(env);
});

afterAll(async () => {
  await Promise.all([gw?.gateway.close(), ...extra.map((g) => g.close())]);
  await Promise.all([account?.close(), ...Object.values(services ?? {}).map((s: Service) => s.close())]);
  tree?.cleanup();
});

const newSession = async () => {
  const userId = `u-${randomUUID()}`;
  const sessionId = `s-${randomUUID()}`;
  return { userId, sessionId, token: await keys.sign({ sub: userId, sid: sessionId }) };
};

/** What reached a stand-in with this marker in its URL. */
const reached = (svc: { seen: Seen[] }, marker: string) => svc.seen.filter((s) => s.url.includes(marker));

/** The headers a browser sends with a top-level navigation (a link, window.location) from a page of `site`. */
const navigation = (site: string) => ({
  'sec-fetch-site': site,
  'sec-fetch-mode': 'navigate',
  'sec-fetch-dest': 'document',
  'sec-fetch-user': '?1',
});

const clearsSession = (res: Response) => res.headers.getSetCookie().some((c) => /^pc_session=;.*Max-Age=0/.test(c));

async function logout(url: string, token: string, headers: Record<string, string>) {
  const marker = randomUUID();
  const res = await fetch(`${url}/api/logout?m=${marker}`, {
    redirect: 'manual',
    headers: { cookie: cookieHeader(token), ...headers },
  });
  return { res, marker };
}

describe('logout only from our own pages', () => {
  it('a navigation from another site lands on / and the session stays alive; ours logs out', async () => {
    const s = await newSession();
    for (const headers of [
      navigation('cross-site'),
      navigation('same-site'), // another application under our site
      // a browser without Fetch Metadata: the page's Origin or Referer tells
      { origin: EVIL },
      { referer: `${EVIL}/page.html` },
      { origin: 'null' },
    ] as Sent[]) {
      const { res, marker } = await logout(gw.url, s.token, headers);
      const what = JSON.stringify(headers);
      expect(res.status, what).toBe(302);
      expect(res.headers.get('location'), what).toBe('/');
      expect(clearsSession(res), what).toBe(false);
      expect(res.headers.get('cache-control'), what).toBe('no-store');
      // account never heard of it: the session was not ended
      expect(reached(account, marker), what).toEqual([]);
    }
    // the same cookie still signs the member in
    const after = await fetch(`${gw.url}/api/files`, { headers: { cookie: cookieHeader(s.token) } });
    expect(after.status).toBe(200);
    const seen = (await after.json()) as Seen;
    expect(verifyIdentityHeader(seen.headers['x-pagecast-identity'] as string, SECRET)?.sessionId).toBe(s.sessionId);

    // while our own logout button (a same-origin navigation) still logs out, and so do the member's own acts
    for (const headers of [
      navigation('same-origin'), // the user menu's window.location.assign('/api/logout')
      navigation('none'), // typed in the address bar, a bookmark
      {}, // a browser without Fetch Metadata on our pages (Referrer-Policy: no-referrer), or curl
      { origin: gw.url },
      { referer: `${gw.url}/settings` },
    ] as Sent[]) {
      const own = await newSession();
      const { res, marker } = await logout(gw.url, own.token, headers);
      const what = JSON.stringify(headers);
      expect(res.status, what).toBe(302);
      expect(res.headers.get('location'), what).toBe('/');
      expect(clearsSession(res), what).toBe(true);
      const ended = reached(account, marker);
      expect(ended.length, what).toBe(1);
      expect(verifyIdentityHeader(ended[0]?.headers['x-pagecast-identity'] as string, SECRET)?.sessionId, what).toBe(
        own.sessionId,
      );
    }
  });
});

describe('state-changing calls only from our own pages', () => {
  const calls: Array<{ method: string; path: string; service: () => { seen: Seen[] } }> = [
    { method: 'POST', path: '/api/marketplace/purchase/f1', service: () => services.marketplace },
    { method: 'PUT', path: '/api/user/password', service: () => account },
    { method: 'DELETE', path: '/api/files/f1', service: () => services.files },
    { method: 'PUT', path: '/api/playlists/p1/items', service: () => services.files },
    { method: 'POST', path: '/api/points/purchase', service: () => services.billing },
    { method: 'DELETE', path: '/api/screens/sc1', service: () => services.screens },
    // signing in from another site would put the victim in the attacker's account (login CSRF)
    { method: 'POST', path: '/api/auth/local-login', service: () => account },
    { method: 'POST', path: '/api/screens/device/heartbeat', service: () => services.screens },
  ];
  const send = async (url: string, call: (typeof calls)[number], headers: Record<string, string>, token: string) => {
    const marker = randomUUID();
    const res = await fetch(`${url}${call.path}?m=${marker}`, {
      method: call.method,
      headers: { cookie: cookieHeader(token), 'content-type': 'application/json', ...headers },
      body: '{"newPassword":"x","expectedPrice":1}',
    });
    return { res, seen: reached(call.service(), marker) };
  };

  it('from another site: 403 CROSS_SITE_REQUEST and no service sees it; from ours (or no browser) it passes', async () => {
    const s = await newSession();
    const foreign: Sent[] = [
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', origin: EVIL },
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' }, // an auto-submitted form
      { 'sec-fetch-site': 'same-site', origin: 'https://other.example.test' },
      // what Sec-Fetch-Site says wins over an Origin that looks like ours
      { 'sec-fetch-site': 'cross-site', origin: gw.url },
      { origin: EVIL },
      { origin: 'null' },
      { referer: `${EVIL}/` },
    ];
    for (const call of calls) {
      for (const headers of foreign) {
        const what = `${call.method} ${call.path} ${JSON.stringify(headers)}`;
        const { res, seen } = await send(gw.url, call, headers, s.token);
        expect(res.status, what).toBe(403);
        expect(await res.json(), what).toEqual({
          code: 'CROSS_SITE_REQUEST',
          message: 'この操作は Pagecast の画面からのみ行えます',
        });
        expect(seen, what).toEqual([]);
        // nor did the gateway touch the session on the way
        expect(res.headers.getSetCookie(), what).toEqual([]);
      }
    }

    // from our own pages, and from clients without a browser, the same calls reach their service
    const own: Sent[] = [
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', origin: gw.url },
      { origin: gw.url },
      { referer: `${gw.url}/files` },
      {}, // curl, k6
    ];
    for (const call of calls) {
      for (const headers of own) {
        const what = `${call.method} ${call.path} ${JSON.stringify(headers)}`;
        const { res, seen } = await send(gw.url, call, headers, s.token);
        if (call.path.includes('/device/')) {
          // a display's route: past the origin check, refused for want of a display's credential
          expect(res.status, what).toBe(401);
          continue;
        }
        expect(res.status, what).toBe(200);
        expect(seen.length, what).toBe(1);
      }
    }
  });

  it("only the card provider's webhook (server to server, signed) and reads are served to another site", async () => {
    const s = await newSession();
    const purchase = calls.find((c) => c.path === '/api/points/purchase') as (typeof calls)[number];
    for (const headers of [
      {},
      { 'sec-fetch-site': 'cross-site', origin: 'https://api.stripe.com' },
      { origin: EVIL },
    ] as Sent[]) {
      const marker = randomUUID();
      const body = JSON.stringify({ id: 'evt_1', type: 'payment_intent.succeeded', data: { object: {} } });
      const res = await fetch(`${gw.url}/api/payments/webhook?m=${marker}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc', ...headers },
        body,
      });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      const seen = reached(services.billing, marker);
      expect(seen.length).toBe(1);
      expect(seen[0]?.headers['stripe-signature']).toBe('t=1,v1=abc');
      // billing's other calls are not exempt
      const other = await send(gw.url, purchase, headers, s.token);
      expect(other.res.status, JSON.stringify(headers)).toBe(Object.keys(headers).length === 0 ? 200 : 403);
    }
    // reading is left alone (a cross-site read carries no session cookie anyway: SameSite=Lax)
    const marker = randomUUID();
    const res = await fetch(`${gw.url}/api/billing/config?m=${marker}`, {
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', origin: EVIL },
    });
    expect(res.status).toBe(200);
    expect(reached(services.billing, marker).length).toBe(1);
  });

  it("another site's refused calls do not spend the address's rate limit", async () => {
    const started = await startGateway({ ...env, RATE_LIMIT_AUTH_MAX: '2' });
    extra.push(started.gateway);
    const s = await newSession();
    const login = calls.find((c) => c.path === '/api/auth/local-login') as (typeof calls)[number];
    for (let i = 0; i < 5; i++) {
      expect((await send(started.url, login, { 'sec-fetch-site': 'cross-site' }, s.token)).res.status).toBe(403);
    }
    const own = await send(started.url, login, { 'sec-fetch-site': 'same-origin' }, s.token);
    expect(own.res.status).toBe(200);
    expect(own.seen.length).toBe(1);
  });

  it("takes PUBLIC_URL's origin and a trusted proxy's forwarded host as ours", async () => {
    const s = await newSession();
    const started = await startGateway({ ...env, PUBLIC_URL: 'https://pagecast.example.test' });
    extra.push(started.gateway);
    const call = calls[0] as (typeof calls)[number];
    // behind a TLS proxy that this gateway does not trust to say so, PUBLIC_URL still names our pages
    expect((await send(started.url, call, { origin: 'https://pagecast.example.test' }, s.token)).res.status).toBe(200);
    // a proxy on loopback (TRUST_PROXY's default) that forwards the host and scheme the browser used
    const forwarded = { 'x-forwarded-host': 'app.example.test', 'x-forwarded-proto': 'https' };
    expect((await send(gw.url, call, { ...forwarded, origin: 'https://app.example.test' }, s.token)).res.status).toBe(
      200,
    );
    const other = await send(started.url, call, { origin: 'https://pagecast.example.test.evil.test' }, s.token);
    expect(other.res.status).toBe(403);
    expect(other.seen).toEqual([]);
  });
});
