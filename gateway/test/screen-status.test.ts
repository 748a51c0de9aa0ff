// Screens' status reports through the gateway, against the real NATS: a value the screens service puts in
// its `screen_status` bucket (every heartbeat) reaches its owner's Screens page stream (`screens=mine`) as the
// screen's id, and no one else's stream.
import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { openKeyValue } from '@pagecast/service-kit';
import { testEnv } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREEN_STATUS_EVENT, statusOwner } from '../src/screen-status-feed';
import { createGateway, type Gateway } from '../src/server';
import { cookieHeader, createKeys, gatewayConfig, type Keys, startEchoService, startFakeAccount } from './support';

let keys: Keys;
let account: Awaited<ReturnType<typeof startFakeAccount>>;
let echo: Awaited<ReturnType<typeof startEchoService>>;
let nc: NatsConnection;
let gateway: Gateway;
let url: string;
let kv: Awaited<ReturnType<typeof openKeyValue>>;

beforeAll(async () => {
  keys = await createKeys();
  account = await startFakeAccount(keys);
  echo = await startEchoService('echo');
  nc = await connect({ servers: testEnv().NATS_URL });
  // the bucket as the screens service opens it (services/screens/src/data/statuses.ts)
  const replicas = Number(process.env.NATS_REPLICAS) || 1;
  kv = await openKeyValue({ nc, js: jetstream(nc), jsm: await jetstreamManager(nc), replicas }, 'screen_status', {
    ttlMs: 86_400_000,
  });
  gateway = createGateway(
    gatewayConfig({
      ACCOUNT_URL: account.url,
      FILES_URL: echo.url,
      MARKETPLACE_URL: echo.url,
      BILLING_URL: echo.url,
      SSE_HEARTBEAT_MS: '300',
    }),
  );
  ({ url } = await gateway.start(0));
});

afterAll(async () => {
  await gateway?.close();
  await nc?.close();
  await Promise.all([account?.close(), echo?.close()]);
});

const member = async () => {
  const userId = `u-${randomUUID()}`;
  return { userId, token: await keys.sign({ sub: userId, sid: `s-${randomUUID()}` }) };
};

/** An SSE stream's named events as they arrive. */
async function openStream(token: string, query: string) {
  const ctrl = new AbortController();
  const res = await fetch(`${url}/api/events?${query}`, {
    headers: { cookie: cookieHeader(token) },
    signal: ctrl.signal,
  });
  const events: Array<{ event: string; data: string }> = [];
  const reader = res.body?.getReader();
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) break;
        buffer += decoder.decode(chunk.value, { stream: true });
        for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const field = (name: string) =>
            block
              .split('\n')
              .find((l) => l.startsWith(`${name}:`))
              ?.slice(name.length + 1)
              .trim() ?? '';
          if (field('event')) events.push({ event: field('event'), data: field('data') });
        }
      }
    } catch {
      // aborted
    }
  })();
  return { res, events, close: () => ctrl.abort() };
}

const report = (screenId: string, ownerId: string) =>
  kv.put(
    screenId,
    JSON.stringify({
      screenId,
      ownerId,
      lastSeenAt: new Date().toISOString(),
      nowPlaying: null,
      appVersion: 'test',
      screenSize: { width: 1920, height: 1080 },
    }),
  );

describe('screen status on the live stream', () => {
  it('reads no report while no Screens page is open on the gateway, follows them while one is, stops after', async () => {
    // a gateway of its own, whose feed stops 100 ms after the last page closed
    const own = createGateway(
      gatewayConfig({
        ACCOUNT_URL: account.url,
        FILES_URL: echo.url,
        MARKETPLACE_URL: echo.url,
        BILLING_URL: echo.url,
      }),
      { statusLingerMs: 100 },
    );
    const started = await own.start(0);
    try {
      const feed = own.statusFeed;
      if (!feed) throw new Error('no status feed');
      await feed.ready;
      expect(feed.following).toBe(false);
      // 30 screens report while no page is open: nobody would hear them
      const owner = await member();
      for (let i = 0; i < 30; i++) await report(randomUUID(), owner.userId);

      const res = await fetch(`${started.url}/api/events?screens=mine`, {
        headers: { cookie: cookieHeader(owner.token) },
      });
      expect(res.status).toBe(200);
      const reader = res.body?.getReader();
      let heard = '';
      const screenId = randomUUID();
      const reading = (async () => {
        const decoder = new TextDecoder();
        for (;;) {
          const chunk = await reader?.read();
          if (!chunk || chunk.done) return;
          heard += decoder.decode(chunk.value, { stream: true });
          if (heard.includes(screenId)) return;
        }
      })();
      expect(feed.following).toBe(true);
      await feed.ready;
      // a report made now reaches the page (sent again until heard, as a display reports every 15 s)
      let done = false;
      void reading.then(() => {
        done = true;
      });
      while (!done) {
        await report(screenId, owner.userId);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(heard).toContain(SCREEN_STATUS_EVENT);
      // the reports made before the page opened were never read: only those since
      expect(feed.counts.read).toBeGreaterThan(0);
      expect(feed.counts.read).toBeLessThan(30);
      await reader?.cancel();
      // the last page closed: the feed stops following the bucket
      while (feed.following) await new Promise((r) => setTimeout(r, 50));
      expect(own.events.watchedOfKind('owner')).toBe(0);
    } finally {
      await own.close();
    }
  });

  it("a screen's report reaches its owner's Screens page stream, ids only, and no other member's", async () => {
    const owner = await member();
    const other = await member();
    const page = await openStream(owner.token, 'screens=mine');
    const otherPage = await openStream(other.token, 'screens=mine');
    const player = await openStream(owner.token, `playlist=${randomUUID()}`);
    expect(page.res.status).toBe(200);
    const screenId = randomUUID();
    // The feed may still be starting (it follows the bucket's stream from its next message): report until it is heard,
    // as a display does every 15 s.
    const deadline = Date.now() + 10_000;
    let seen: { event: string; data: string } | undefined;
    while (!seen && Date.now() < deadline) {
      await report(screenId, owner.userId);
      await new Promise((r) => setTimeout(r, 200));
      seen = page.events.find((e) => e.event === SCREEN_STATUS_EVENT);
    }
    expect(seen).toBeDefined();
    const forwarded = JSON.parse(seen?.data ?? '{}') as { type: string; data: Record<string, string> };
    expect(forwarded.type).toBe(SCREEN_STATUS_EVENT);
    expect(forwarded.data).toEqual({ screenId });
    // A later report of the other member's own screen reaches them: by then the owner's report has long passed by.
    const theirs = randomUUID();
    const until = Date.now() + 10_000;
    while (!otherPage.events.some((e) => e.event === SCREEN_STATUS_EVENT) && Date.now() < until) {
      await report(theirs, other.userId);
      await new Promise((r) => setTimeout(r, 200));
    }
    const heardByOther = otherPage.events.filter((e) => e.event === SCREEN_STATUS_EVENT);
    expect(heardByOther.length).toBeGreaterThan(0);
    expect(heardByOther.every((e) => !e.data.includes(screenId))).toBe(true);
    expect(page.events.every((e) => !e.data.includes(theirs))).toBe(true);
    // a stream that did not ask for its screens (a signage player) hears none of it
    expect(player.events.some((e) => e.event === SCREEN_STATUS_EVENT)).toBe(false);
    for (const s of [page, otherPage, player]) s.close();
  });

  it('reads only status values: deletes, purges and foreign shapes are not forwarded', () => {
    expect(statusOwner(new Uint8Array())).toBeUndefined();
    expect(statusOwner(new TextEncoder().encode('not json'))).toBeUndefined();
    expect(statusOwner(new TextEncoder().encode('{"screenId":"s"}'))).toBeUndefined();
    expect(statusOwner(new TextEncoder().encode('{"screenId":"s","ownerId":"o","x":1}'))).toEqual({
      screenId: 's',
      ownerId: 'o',
    });
  });
});
