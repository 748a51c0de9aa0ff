// followBucket against the real NATS test server, reached through a TCP proxy the test can cut: the values at start,
// then each change; the attempts while the server cannot be reached are logged and retried, and once it can be again
// the watch goes on from the last revision it saw, with what changed meanwhile.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followBucket } from '../src/bucket-follower';
import { connectNats, type KV, type Nats, openKeyValue } from '../src/nats';
import { testEnv } from '../src/testing';
import { captureLogger, waitFor } from './helpers';

const env = testEnv();
const { logger, lines } = captureLogger();

/** A proxy to the NATS server whose connections the test cuts (`cut`) and lets through again (`mend`). */
function natsProxy() {
  const target = new URL(env.NATS_URL.split(',')[0]?.replace(/^nats:/, 'http:') ?? '');
  const sockets = new Set<net.Socket>();
  let open = true;
  const server = net.createServer((client) => {
    if (!open) return void client.destroy();
    const upstream = net.connect(Number(target.port || 4222), target.hostname);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', end);
      s.on('close', end);
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return {
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`nats://127.0.0.1:${(server.address() as net.AddressInfo).port}`)),
      ),
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
    },
    mend() {
      open = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const proxy = natsProxy();
let direct: Nats;
let proxied: Nats;
const buckets: KV[] = [];

beforeAll(async () => {
  direct = await connectNats(env.NATS_URL, logger, 'kit-bucket-direct');
  proxied = await connectNats(await proxy.listen(), logger, 'kit-bucket-proxied');
});
afterAll(async () => {
  for (const kv of buckets) await kv.destroy().catch(() => undefined);
  await proxied?.nc.close();
  await direct?.nc.drain();
  await proxy.close();
});

async function bucket(): Promise<{ name: string; kv: KV }> {
  const name = `kit_follow_${randomUUID().slice(0, 8)}`;
  const kv = await openKeyValue(direct, name, { ttlMs: 0 });
  buckets.push(kv);
  return { name, kv };
}

/** The bucket's keys and values as the follower heard them, and every revision it heard. */
function mirror() {
  const values = new Map<string, string>();
  const revisions: number[] = [];
  return {
    values,
    revisions,
    onEntry(e: { key: string; revision: number; operation: string; string(): string }) {
      revisions.push(e.revision);
      if (e.operation === 'PUT') values.set(e.key, e.string());
      else values.delete(e.key);
    },
  };
}

describe('followBucket', () => {
  it('hears the values at start (ready once they are in), then each put and delete; an empty bucket is ready at once', async () => {
    const { name, kv } = await bucket();
    await kv.put('a', '1');
    await kv.put('b', '2');
    await kv.delete('a');
    const seen = mirror();
    const follower = followBucket({
      nats: direct,
      bucket: name,
      open: () => openKeyValue(direct, name, { ttlMs: 0 }),
      onEntry: seen.onEntry,
      name: 'test mirror',
      logger,
    });
    await follower.ready;
    expect(Object.fromEntries(seen.values)).toEqual({ b: '2' });
    await kv.put('c', '3');
    await kv.delete('b');
    await waitFor('the later changes', () => seen.values.has('c') && !seen.values.has('b'));
    expect(Object.fromEntries(seen.values)).toEqual({ c: '3' });
    await follower.stop();
    await kv.put('d', '4');
    await follower.done;
    await direct.nc.flush();
    expect(seen.values.has('d')).toBe(false); // stopped: nothing more

    const empty = await bucket();
    const none = followBucket({
      nats: direct,
      bucket: empty.name,
      open: () => openKeyValue(direct, empty.name, { ttlMs: 0 }),
      onEntry: () => undefined,
      name: 'empty mirror',
      readyWithinMs: 60_000,
    });
    await none.ready;
    await none.stop();
  });

  it('while the server cannot be reached it logs what it waits for and tries again; then it goes on from the last revision seen', async () => {
    const { name, kv } = await bucket();
    await kv.put('a', '1');
    const seen = mirror();
    const open = () => openKeyValue(proxied, name, { ttlMs: 0, timeoutMs: 1_000 });
    proxy.cut(); // before the first attempt: it fails, and the next ones too, until the proxy lets them through
    const before = lines.length;
    const follower = followBucket({
      nats: proxied,
      bucket: name,
      open,
      onEntry: seen.onEntry,
      name: 'test mirror',
      logger,
      minMs: 50,
      maxMs: 400,
      readyWithinMs: 60_000,
    });
    await waitFor(
      'a failed attempt logged',
      () =>
        lines.slice(before).some((l) => String(l.msg).includes(`waiting for NATS (the watch of the bucket ${name})`)),
      30_000,
    );
    await kv.put('b', '2'); // made while the follower could not read
    proxy.mend();
    await follower.ready;
    expect(Object.fromEntries(seen.values)).toEqual({ a: '1', b: '2' });

    // the connection drops under a running watch: what changes meanwhile arrives once it is back, each revision once
    proxy.cut();
    await kv.put('c', '3');
    await kv.delete('a');
    await new Promise((r) => setTimeout(r, 500));
    proxy.mend();
    await waitFor('the changes made while cut off', () => seen.values.has('c') && !seen.values.has('a'), 30_000);
    await kv.put('d', '4');
    await waitFor('a change made after', () => seen.values.has('d'), 30_000);
    expect(Object.fromEntries(seen.values)).toEqual({ b: '2', c: '3', d: '4' });
    expect(seen.revisions).toEqual([...new Set(seen.revisions)].sort((x, y) => x - y));
    await follower.stop();
  }, 60_000);

  it('does not keep its readers waiting beyond the bound, and says what it still waits for', async () => {
    const { name, kv } = await bucket();
    await kv.put('a', '1');
    proxy.cut();
    const before = lines.length;
    const follower = followBucket({
      nats: proxied,
      bucket: name,
      open: () => openKeyValue(proxied, name, { ttlMs: 0, timeoutMs: 1_000 }),
      onEntry: () => undefined,
      name: 'bounded mirror',
      logger,
      minMs: 50,
      readyWithinMs: 300,
    });
    const started = Date.now();
    await follower.ready;
    expect(Date.now() - started).toBeLessThan(5_000);
    const said = lines
      .slice(before)
      .find((l) => String(l.msg).startsWith('bounded mirror: not caught up within 0.3 s'));
    expect(said?.msg).toContain(`still waiting for NATS (the watch of the bucket ${name})`);
    proxy.mend();
    await follower.stop();
  }, 30_000);
});
