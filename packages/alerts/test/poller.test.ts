// The poller against a local HTTP server serving a JMA-shaped Atom feed and sample reports, publishing onto a
// JetStream stream of its own on the test profile's NATS (its own name and subject: the screens service's consumer
// on the shared ALERTS stream never sees these).
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AlertsPublisher, connectAlertsPublisher } from '../src/feed/nats.ts';
import { MAX_ENTRY_ATTEMPTS, MIN_INTERVAL_MS, type PollerEvent, startPoller } from '../src/feed/poller.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:14222';
const samples = join(import.meta.dirname, '../samples/jma');
const reports: Record<string, Buffer> = {
  'a.xml': readFileSync(join(samples, '32-35_04_02_100831_VXSE51.xml')),
  'b.xml': readFileSync(join(samples, '32-35_04_03_240613_VXSE52.xml')),
  'c.xml': readFileSync(join(samples, '32-35_04_06_240613_VXSE53.xml')),
};
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The server: the feed lists `listed` in its order (newest first, as JMA's); `failing` answers 500 to everything. */
const server = {
  http: undefined as Server | undefined,
  base: '',
  listed: ['b.xml', 'a.xml'],
  lastModified: 'Sat, 25 Jan 2025 07:18:00 GMT',
  failing: false,
  requests: [] as Array<{ path: string; ifModifiedSince: string | undefined }>,
};
const feed = () => `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" lang="ja">
  <title>高頻度（地震火山）</title><id>urn:uuid:feed</id><updated>2025-01-25T07:18:00Z</updated>
  ${server.listed
    .map(
      (f) =>
        `<entry><title>report</title><id>urn:uuid:${f}</id><updated>2025-01-25T07:18:00Z</updated><author><name>気象庁</name></author><link type="application/xml" href="${server.base}/data/${f}"/></entry>`,
    )
    .join('\n  ')}
</feed>`;

function handle(req: IncomingMessage, res: import('node:http').ServerResponse) {
  const path = req.url ?? '';
  server.requests.push({ path, ifModifiedSince: req.headers['if-modified-since'] });
  if (server.failing) return res.writeHead(500).end();
  if (path === '/feed/eqvol.xml') {
    if (req.headers['if-modified-since'] === server.lastModified) return res.writeHead(304).end();
    return res
      .writeHead(200, { 'content-type': 'application/atom+xml', 'last-modified': server.lastModified })
      .end(feed());
  }
  const body = reports[path.replace('/data/', '')];
  if (!body) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'application/xml' }).end(body);
}

const stream = {
  name: `ALERTS_T${randomUUID().slice(0, 8)}`,
  subjects: [] as string[],
  duplicateWindowMs: 120_000,
  maxAgeMs: 3_600_000,
};
const subject = `alertstest${randomUUID().slice(0, 8)}.report.v1`;
stream.subjects = [subject];
let publisher: AlertsPublisher;
let nc: NatsConnection;

beforeAll(async () => {
  server.http = createServer(handle);
  await new Promise<void>((r) => server.http?.listen(0, '127.0.0.1', r));
  server.base = `http://127.0.0.1:${(server.http.address() as AddressInfo).port}`;
  publisher = await connectAlertsPublisher(NATS_URL, { stream, subject });
  nc = await connect({ servers: NATS_URL });
});

afterAll(async () => {
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete(stream.name).catch(() => undefined);
  await nc.close();
  await publisher.close();
  await new Promise((r) => server.http?.close(r));
});

/** The stream's messages: their Nats-Msg-Id and bytes. */
async function stored(): Promise<Array<{ msgId: string | undefined; sha: string }>> {
  const jsm = await jetstreamManager(nc);
  const { state } = await jsm.streams.info(stream.name);
  const out = [];
  for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
    const m = await jsm.streams.getMessage(stream.name, { seq });
    if (m) out.push({ msgId: m.header?.get('Nats-Msg-Id'), sha: sha(Buffer.from(m.data)) });
  }
  return out;
}

/** Runs the poller with a recorded sleep that lets each loop turn go by at once, until `until` holds. */
async function run(until: (events: PollerEvent[]) => boolean, extra: Partial<Parameters<typeof startPoller>[0]> = {}) {
  const events: PollerEvent[] = [];
  const waits: number[] = [];
  let resolveDone: () => void;
  const done = new Promise<void>((r) => {
    resolveDone = r;
  });
  const poller = startPoller({
    urls: [`${server.base}/feed/eqvol.xml`],
    fetch: globalThis.fetch,
    publish: async (xml, msgId) => {
      await publisher.publish(xml, msgId);
    },
    intervalMs: 60_000,
    random: () => 0.5,
    sleep: async (ms) => {
      waits.push(ms);
      if (until(events)) resolveDone();
      await new Promise((r) => setTimeout(r, 5));
    },
    onEvent: (e) => events.push(e),
    ...extra,
  });
  await Promise.race([done, new Promise((_, reject) => setTimeout(() => reject(new Error('poller stuck')), 10_000))]);
  await poller.stop();
  return { events, waits };
}

describe('the JMA feed poller', () => {
  it('publishes each entry once, oldest first, with Nats-Msg-Id jma:<sha256>; asks If-Modified-Since after', async () => {
    const { events, waits } = await run((e) => {
      const notModified = e.filter((x) => x.type === 'not-modified').length;
      // JMA adds a report: the next poll gets the feed again (new Last-Modified) and fetches only that one
      if (notModified === 2 && server.listed.length === 2) {
        server.listed = ['c.xml', 'b.xml', 'a.xml'];
        server.lastModified = 'Sat, 25 Jan 2025 07:25:00 GMT';
      }
      const lastPublished = e.findLastIndex((x) => x.type === 'published');
      return lastPublished >= 2 && e.slice(lastPublished).some((x) => x.type === 'not-modified');
    });
    const [a, b, c] = [reports['a.xml'], reports['b.xml'], reports['c.xml']] as Buffer[];
    expect(await stored()).toEqual([a, b, c].map((r) => ({ msgId: `jma:${sha(r as Buffer)}`, sha: sha(r as Buffer) })));
    expect(events.filter((e) => e.type === 'published')).toHaveLength(3);
    // each report fetched once; a feed request after a full read carries the server's Last-Modified
    expect(server.requests.filter((r) => r.path.startsWith('/data/')).map((r) => r.path)).toEqual([
      '/data/a.xml',
      '/data/b.xml',
      '/data/c.xml',
    ]);
    const feedRequests = server.requests.filter((r) => r.path === '/feed/eqvol.xml');
    expect(feedRequests[0]?.ifModifiedSince).toBeUndefined();
    expect(feedRequests[1]?.ifModifiedSince).toBe('Sat, 25 Jan 2025 07:18:00 GMT');
    expect(feedRequests.at(-1)?.ifModifiedSince).toBe('Sat, 25 Jan 2025 07:25:00 GMT');
    // the interval, with the jitter at its middle
    expect(waits.every((w) => w === 60_000)).toBe(true);
  });

  it('a poller restarted knows no ids: it publishes the feed again and JetStream drops the repeats by message id', async () => {
    server.requests = [];
    await run((e) => e.some((x) => x.type === 'polled'));
    expect(server.requests.filter((r) => r.path.startsWith('/data/'))).toHaveLength(3);
    expect(await stored()).toHaveLength(3);
  });

  it('backs off, doubling, while the feed fails, and returns to the interval once it answers', async () => {
    server.failing = true;
    let turns = 0;
    const { events, waits } = await run((e) => {
      turns++;
      if (turns === 3) server.failing = false;
      return e.some((x) => x.type === 'polled');
    });
    expect(events.filter((e) => e.type === 'failed').map((e) => (e as { reason: string }).reason)).toEqual([
      'feed-http-500',
      'feed-http-500',
      'feed-http-500',
    ]);
    expect(waits.slice(0, 4)).toEqual([120_000, 240_000, 480_000, 60_000]);
  });

  it('a report the server no longer serves is tried again at the interval (no backoff), then given up', async () => {
    server.requests = [];
    server.listed = ['gone.xml', 'c.xml', 'b.xml', 'a.xml'];
    server.lastModified = 'Sat, 25 Jan 2025 07:30:00 GMT';
    const { events, waits } = await run((e) => e.some((x) => x.type === 'entry-failed' && x.givenUp));
    const failures = events.filter((e) => e.type === 'entry-failed');
    expect(failures.map((e) => (e as { attempts: number }).attempts)).toEqual(
      Array.from({ length: MAX_ENTRY_ATTEMPTS }, (_, i) => i + 1),
    );
    expect(failures.every((e) => (e as { reason: string }).reason === 'report-http-404')).toBe(true);
    // the feed is read in full again while an entry is pending (no If-Modified-Since), and kept at its interval
    const feedRequests = server.requests.filter((r) => r.path === '/feed/eqvol.xml');
    expect(feedRequests.slice(0, MAX_ENTRY_ATTEMPTS).every((r) => r.ifModifiedSince === undefined)).toBe(true);
    expect(waits.every((w) => w === 60_000)).toBe(true);
    expect(events.some((e) => e.type === 'failed')).toBe(false);
  });

  it('never polls JMA more often than once a minute, and jitters', async () => {
    const { waits } = await run(() => true, { intervalMs: 1000, random: () => 0 });
    expect(waits[0]).toBe(MIN_INTERVAL_MS * 0.9);
  });
});
