// Live updates through the gateway against the real NATS: events published on JetStream (as the services' outboxes
// do) reach the SSE streams watching their playlist or file, and nothing else.
import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createEvent, type EventData, errorMessagesJa, type Subject } from '@pagecast/contracts';
import { testEnv } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LiveLimits, SINCE_SLACK_MS } from '../src/events';
import { createGateway, type Gateway } from '../src/server';
import {
  cookieHeader,
  createKeys,
  gatewayConfig,
  type Keys,
  publishRevocation,
  startEchoService,
  startFakeAccount,
  waitFor,
} from './support';

let keys: Keys;
let account: Awaited<ReturnType<typeof startFakeAccount>>;
let echo: Awaited<ReturnType<typeof startEchoService>>;
let nc: NatsConnection;
const gateways: Gateway[] = [];
let url: string;

async function gatewayWith(live: Partial<LiveLimits> = {}) {
  const gateway = createGateway(
    gatewayConfig({
      ACCOUNT_URL: account.url,
      FILES_URL: echo.url,
      MARKETPLACE_URL: echo.url,
      BILLING_URL: echo.url,
      SSE_HEARTBEAT_MS: '300',
    }),
    { live },
  );
  gateways.push(gateway);
  return { gateway, url: (await gateway.start(0)).url };
}

beforeAll(async () => {
  keys = await createKeys();
  account = await startFakeAccount(keys);
  echo = await startEchoService('echo');
  nc = await connect({ servers: testEnv().NATS_URL });
  ({ url } = await gatewayWith());
});

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  await nc?.close();
  await Promise.all([account?.close(), echo?.close()]);
});

const session = async () => {
  const userId = `u-${randomUUID()}`;
  const sessionId = `s-${randomUUID()}`;
  return { userId, sessionId, token: await keys.sign({ sub: userId, sid: sessionId }) };
};

/** Publishes as a service's outbox does: a validated envelope, its id as the message id. Returns the envelope. */
async function publish<S extends Subject>(type: S, data: EventData<S>) {
  const event = createEvent(type, data);
  await jetstream(nc).publish(type, JSON.stringify(event), { msgID: event.id });
  return event;
}

interface SseEvent {
  event?: string;
  id?: string;
  data?: string;
  retry?: string;
  comment?: string;
}

/** An open SSE stream, parsed as a browser would; `next` waits for a matching event. */
async function openStream(base: string, opts: { token?: string; query?: string; headers?: Record<string, string> }) {
  const ctrl = new AbortController();
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.cookie = cookieHeader(opts.token);
  const res = await fetch(`${base}/api/events${opts.query ? `?${opts.query}` : ''}`, { headers, signal: ctrl.signal });
  const received: SseEvent[] = [];
  let ended = false;
  let buffer = '';
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of waiters) w();
  };
  if (res.status === 200 && res.body) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let cut = buffer.indexOf('\n\n');
          while (cut >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const e: SseEvent = {};
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) e.comment = line.slice(1).trim();
              else {
                const at = line.indexOf(':');
                const field = line.slice(0, at) as keyof SseEvent;
                e[field] = line.slice(at + 1).replace(/^ /, '');
              }
            }
            received.push(e);
            cut = buffer.indexOf('\n\n');
          }
          wake();
        }
      } catch {
        // aborted
      }
      ended = true;
      wake();
    })();
  }
  // a wait for a fact, so its limit only says when to give up: generous, for a loaded machine
  const next = (match: (e: SseEvent) => boolean, timeoutMs = 10_000) =>
    new Promise<SseEvent>((resolve, reject) => {
      const check = () => {
        const found = received.find(match);
        if (found) done(() => resolve(found));
        else if (ended) done(() => reject(new Error('stream ended')));
      };
      const timer = setTimeout(() => done(() => reject(new Error('no matching event in time'))), timeoutMs);
      const done = (fn: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        fn();
      };
      waiters.add(check);
      check();
    });
  const untilEnded = (timeoutMs = 3000) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      const check = () => {
        if (!ended) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(true);
      };
      waiters.add(check);
      check();
    });
  return { res, received, next, untilEnded, close: () => ctrl.abort() };
}

const named = (name: string) => (e: SseEvent) => e.event === name;
const playlistSaved = (playlistId: string, ownerId: string) =>
  publish('files.playlist.saved.v1', {
    playlistId,
    ownerId,
    name: 'ロビー',
    fileIds: [randomUUID()],
    updatedAt: new Date().toISOString(),
  });

describe('GET /api/events', () => {
  it('anonymous or a forged cookie: 401, no stream', async () => {
    const anon = await openStream(url, { query: `playlist=${randomUUID()}` });
    expect(anon.res.status).toBe(401);
    expect(await anon.res.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized' });
    const forged = await openStream(url, { token: 'not.a.jwt' });
    expect(forged.res.status).toBe(401);
  });

  it("a stream watching playlist P gets P's saved event, ids only, and not Q's", async () => {
    const s = await session();
    const p = randomUUID();
    const q = randomUUID();
    const stream = await openStream(url, { token: s.token, query: `playlist=${p}` });
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await stream.next(named('ready'));
    expect(stream.received[0]).toEqual({ retry: '2000' });

    await playlistSaved(q, s.userId);
    const sent = await playlistSaved(p, s.userId);
    // how soon: `npm run bench -- live` measures the delivery time of an event to its streams
    const got = await stream.next(named('files.playlist.saved.v1'));
    expect(got.id).toBe(sent.id);
    // the fact of a change and the id: no name, no file list
    expect(JSON.parse(got.data ?? '')).toEqual({
      id: sent.id,
      type: 'files.playlist.saved.v1',
      data: { playlistId: p },
    });
    // Q was published first on the same stream: had it been forwarded, it would be here already
    expect(stream.received.filter((e) => e.data?.includes(q))).toEqual([]);

    const deleted = await publish('files.playlist.deleted.v1', {
      playlistId: p,
      ownerId: s.userId,
      deletedAt: new Date().toISOString(),
    });
    expect((await stream.next((e) => e.id === deleted.id)).event).toBe('files.playlist.deleted.v1');
    stream.close();
  });

  it('file watchers get updates, page progress, deletion and licence expiry of their files only', async () => {
    const s = await session();
    const f = randomUUID();
    const other = randomUUID();
    const stream = await openStream(url, { token: s.token, query: `file=${f}&file=${randomUUID()}` });
    await stream.next(named('ready'));
    const now = new Date().toISOString();
    await publish('files.page.ready.v1', {
      fileId: other,
      ownerId: s.userId,
      pageNumber: 1,
      imageKey: 'k',
      pagesDone: 1,
      pageCount: 3,
    });
    const sent = [
      await publish('files.file.updated.v1', {
        fileId: f,
        ownerId: s.userId,
        title: '秘密のタイトル',
        status: 'private',
        pageCount: 3,
        displayDuration: 30,
        displayMode: 'fit-height',
        tags: [],
        isPublished: false,
        publishPrice: null,
        updatedAt: now,
      }),
      await publish('files.page.ready.v1', {
        fileId: f,
        ownerId: s.userId,
        pageNumber: 2,
        imageKey: 'k2',
        pagesDone: 2,
        pageCount: 3,
      }),
      await publish('marketplace.licence.expired.v1', {
        purchaseId: randomUUID(),
        buyerId: s.userId,
        fileId: f,
        expiredAt: now,
      }),
      await publish('files.file.deleted.v1', { fileId: f, ownerId: s.userId, deletedAt: now }),
    ];
    for (const e of sent) {
      const got = await stream.next((x) => x.id === e.id);
      expect(got.event).toBe(e.type);
      expect(JSON.parse(got.data ?? '').data).toEqual({ fileId: f });
    }
    expect(stream.received.some((e) => e.data?.includes('秘密') || e.data?.includes(other))).toBe(false);
    stream.close();
  });

  it('a reconnect with Last-Event-ID is told to resync; a first connect is not', async () => {
    const s = await session();
    const first = await openStream(url, { token: s.token, query: `playlist=${randomUUID()}` });
    const ready = await first.next(named('ready'));
    expect(ready.id).toMatch(/^ready-/);
    await first.next((e) => e.comment?.startsWith('heartbeat') === true);
    expect(first.received.some(named('resync'))).toBe(false);
    first.close();

    const again = await openStream(url, {
      token: s.token,
      query: `playlist=${randomUUID()}`,
      headers: { 'last-event-id': ready.id ?? '' },
    });
    const resync = await again.next(named('resync'));
    expect(JSON.parse(resync.data ?? '')).toMatchObject({ reason: 'reconnected' });
    again.close();
  });

  it('a first connect on an id changed just before is told to resync: its client read it before the stream', async () => {
    // A player reads its playlist, then opens its stream (and opens another when the ids it plays change): a save
    // in between reaches no stream. Seen once as an edit that never reached the screen.
    const { gateway: gw, url: base } = await gatewayWith({ recentChangeMs: 1500 });
    const s = await session();
    const p = randomUUID();
    const quiet = randomUUID();
    await playlistSaved(p, s.userId);
    await waitFor(async () => (gw.events.recentChanges > 0 ? true : undefined));
    const after = await openStream(base, { token: s.token, query: `playlist=${quiet}&playlist=${p}` });
    await after.next(named('ready'));
    const resync = await after.next(named('resync'));
    expect(JSON.parse(resync.data ?? '')).toEqual({ reason: 'changed-before-open' });
    after.close();
    // other ids: nothing to catch up on
    const other = await openStream(base, { token: s.token, query: `playlist=${quiet}` });
    await other.next(named('ready'));
    await other.next((e) => e.comment?.startsWith('heartbeat') === true);
    expect(other.received.some(named('resync'))).toBe(false);
    other.close();
    // past the window the change is forgotten (a client that read after it is up to date)
    await new Promise((r) => setTimeout(r, 1600));
    const later = await openStream(base, { token: s.token, query: `playlist=${p}` });
    await later.next(named('ready'));
    await later.next((e) => e.comment?.startsWith('heartbeat') === true);
    expect(later.received.some(named('resync'))).toBe(false);
    // (That the remembered ids are dropped after the window, so memory stays bounded, is tested on the pure module
    // in recent-changes.test.ts: this gateway also hears other test files' events on the shared NATS.)
    later.close();
  });

  it('a first connect whose reads were all made after the change (since) is not told to resync', async () => {
    // `since` is the server time of the client's first read (its Date header): a player opening on a deck converted
    // a while before its page loaded would otherwise refetch everything it has just read.
    const { gateway: gw, url: base } = await gatewayWith();
    const s = await session();
    const p = randomUUID();
    await playlistSaved(p, s.userId);
    await waitFor(async () => (gw.events.recentChanges > 0 ? true : undefined));
    const heard = Date.now();
    const fresh = await openStream(base, {
      token: s.token,
      query: `playlist=${p}&since=${heard + SINCE_SLACK_MS + 1000}`,
    });
    await fresh.next(named('ready'));
    await fresh.next((e) => e.comment?.startsWith('heartbeat') === true);
    expect(fresh.received.some(named('resync'))).toBe(false);
    fresh.close();
    // reads from about when the change was heard may predate it: resync
    const close = await openStream(base, { token: s.token, query: `playlist=${p}&since=${heard}` });
    const resync = await close.next(named('resync'));
    expect(JSON.parse(resync.data ?? '')).toEqual({ reason: 'changed-before-open' });
    close.close();
    // a reconnect resyncs whatever since says
    const again = await openStream(base, {
      token: s.token,
      query: `playlist=${p}&since=${heard + 60_000}`,
      headers: { 'last-event-id': 'ready-1' },
    });
    expect(JSON.parse((await again.next(named('resync'))).data ?? '')).toMatchObject({ reason: 'reconnected' });
    again.close();
    // not a time: refused, nothing opened
    const bad = await openStream(base, { token: s.token, query: `playlist=${p}&since=yesterday` });
    expect(bad.res.status).toBe(400);
    expect(await bad.res.json()).toMatchObject({ code: 'VALIDATION', issues: [{ path: 'since' }] });
  });

  it("a revoked session's streams close; other sessions' stay open", async () => {
    const revoked = await session();
    const kept = await session();
    const p = randomUUID();
    const a = await openStream(url, { token: revoked.token, query: `playlist=${p}` });
    const b = await openStream(url, { token: kept.token, query: `playlist=${p}` });
    await Promise.all([a.next(named('ready')), b.next(named('ready'))]);
    await publishRevocation(revoked.sessionId, revoked.userId);
    expect(await a.untilEnded()).toBe(true);
    const sent = await playlistSaved(p, kept.userId);
    await b.next((e) => e.id === sent.id);
    expect(a.received.some((e) => e.id === sent.id)).toBe(false);
    b.close();
  });
});

describe('bounds', () => {
  it('refuses more than 50 watched ids and malformed ids', async () => {
    const s = await session();
    const many = Array.from({ length: 51 }, (_, i) => (i % 2 ? `file=f${i}` : `playlist=p${i}`)).join('&');
    const tooMany = await openStream(url, { token: s.token, query: many });
    expect(tooMany.res.status).toBe(400);
    expect((await tooMany.res.json()).code).toBe('VALIDATION');
    const fifty = await openStream(url, { token: s.token, query: many.slice(0, many.lastIndexOf('&')) });
    expect(fifty.res.status).toBe(200);
    expect(JSON.parse((await fifty.next(named('ready'))).data ?? '').watching).toBe(50);
    fifty.close();
    const bad = await openStream(url, { token: s.token, query: `playlist=${encodeURIComponent('a b/c')}` });
    expect(bad.res.status).toBe(400);
  });

  it("a session's 21st stream closes its oldest; the gateway's cap answers 503", async () => {
    const { url: small, gateway } = await gatewayWith({ maxStreams: 22, maxStreamsPerSession: 20 });
    const s = await session();
    const streams = [];
    for (let i = 0; i < 21; i++) {
      const st = await openStream(small, { token: s.token, query: `playlist=p${i}` });
      await st.next(named('ready'));
      streams.push(st);
    }
    expect(await streams[0]?.untilEnded()).toBe(true);
    expect(await streams[1]?.untilEnded(300)).toBe(false);
    expect(gateway.events.size).toBe(20);

    const other = await session();
    const two = [await openStream(small, { token: other.token }), await openStream(small, { token: other.token })];
    await two[0]?.next(named('ready'));
    expect(two[0]?.res.status).toBe(200);
    expect(two[1]?.res.status).toBe(200);
    const over = await openStream(small, { token: other.token });
    expect(over.res.status).toBe(503);
    expect(over.res.headers.get('retry-after')).toBe('30');
    for (const st of [...streams, ...two]) st.close();
  });

  it("a member's streams over all their sessions are capped (429); a session at its own cap still replaces its oldest", async () => {
    const { url: small, gateway } = await gatewayWith({
      maxStreams: 100,
      maxStreamsPerSession: 2,
      maxStreamsPerMember: 5,
    });
    const userId = `u-${randomUUID()}`;
    const newSession = () => keys.sign({ sub: userId, sid: `s-${randomUUID()}` });
    const a = await newSession();
    const tokens = [a, a, await newSession(), await newSession(), await newSession()];
    const open = [];
    for (const token of tokens) {
      const st = await openStream(small, { token });
      await st.next(named('ready'));
      open.push(st);
    }
    expect(gateway.events.size).toBe(5);

    const e = await newSession();
    const refused = await openStream(small, { token: e });
    expect(refused.res.status).toBe(429);
    expect(await refused.res.json()).toEqual({ code: 'RATE_LIMITED', message: errorMessagesJa.RATE_LIMITED });
    expect(refused.res.headers.get('retry-after')).toBe('30');
    for (const st of open) expect(await st.untilEnded(100)).toBe(false);

    const aThird = await openStream(small, { token: a });
    expect(aThird.res.status).toBe(200);
    await aThird.next(named('ready'));
    expect(await open[0]?.untilEnded()).toBe(true);
    expect(gateway.events.size).toBe(5);

    open[4]?.close();
    await waitFor(async () => (gateway.events.size === 4 ? true : undefined));
    const eAgain = await openStream(small, { token: e });
    expect(eAgain.res.status).toBe(200);

    const other = await session();
    const theirs = await openStream(small, { token: other.token });
    expect(theirs.res.status).toBe(200);
    for (const st of [...open, aThird, eAgain, theirs]) st.close();
  });
});
