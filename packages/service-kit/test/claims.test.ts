import type mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClaims, LEASE_SWEEP_GRACE_MS } from '../src/claims';
import { connectMongo } from '../src/mongo';
import { testEnv, uniqueName } from '../src/testing';
import { captureLogger } from './helpers';

const env = testEnv();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const { logger } = captureLogger();
let conn: mongoose.Connection;

beforeAll(async () => {
  conn = await connectMongo(env.MONGO_URL, uniqueName('kit_claims'), logger);
});
afterAll(async () => {
  await conn.dropDatabase();
  await conn.close();
});

describe('claims (insert-once on a real MongoDB-protocol server)', () => {
  it('lets exactly one of many concurrent callers claim an id', async () => {
    const claims = createClaims(conn);
    await claims.model.init();
    const won = await Promise.all(Array.from({ length: 20 }, () => claims.claim('once')));
    expect(won.filter(Boolean)).toHaveLength(1);
    expect(await claims.claim('once')).toBeNull();
  });

  it('gives an expired lease to exactly one late caller, and only the holder releases it', async () => {
    const claims = createClaims(conn);
    const t0 = new Date('2030-01-01T00:00:00Z');
    const first = await claims.claim('lease', { expire: new Date(t0.getTime() + 1000), now: t0 });
    expect(first).not.toBeNull();
    expect(
      await claims.claim('lease', { expire: new Date(t0.getTime() + 2000), now: new Date(t0.getTime() + 500) }),
    ).toBeNull();
    const later = new Date(t0.getTime() + 1500);
    const takers = await Promise.all(
      Array.from({ length: 10 }, () => claims.claim('lease', { expire: new Date(later.getTime() + 1000), now: later })),
    );
    const winners = takers.filter((t) => t !== null);
    expect(winners).toHaveLength(1);
    // The first holder's late release must not free the new holder's lease.
    await claims.release(first as NonNullable<typeof first>);
    expect((await claims.get('lease'))?.token).toBe(winners[0]?.token);
    await claims.release(winners[0] as NonNullable<(typeof winners)[0]>);
    expect(await claims.get('lease')).toBeNull();
  });

  it('sweeps expired leases and keeps claims without expiry', async () => {
    const claims = createClaims(conn, 'claims_sweep');
    await claims.claim('kept');
    await claims.claim('short', { expire: new Date(Date.now() - 1) });
    // a lease's last generation stays a while after its end (a late caller may still act on it), then goes
    expect(await claims.sweepExpired()).toBe(0);
    expect(await claims.sweepExpired(new Date(Date.now() + LEASE_SWEEP_GRACE_MS + 1000))).toBe(1);
    expect(await claims.get('kept')).not.toBeNull();
    expect(await claims.get('short')).toBeNull();
  });

  it("keeps a released lease's newest generation through the grace, so the next holder takes the number after it", async () => {
    const claims = createClaims(conn, 'claims_release');
    const held = await claims.claim('lock', { expire: new Date(Date.now() + 60_000) });
    expect(held?._id).toBe('lock#0');
    await claims.release(held as NonNullable<typeof held>);
    // swept at once, a caller that read generation 1 could insert #2 while a newer caller starts again at #0
    expect(await claims.sweepExpired()).toBe(0);
    const next = await claims.claim('lock', { expire: new Date(Date.now() + 60_000) });
    expect(next?._id).toBe('lock#2');
  });

  it('runs a job under a free lease only: a second caller meanwhile runs nothing, and the lease is free after', async () => {
    const claims = createClaims(conn, 'claims_try');
    let inside = 0;
    const job = async () => {
      inside += 1;
      await sleep(50);
      return 'done';
    };
    const [one, two] = await Promise.all([
      claims.tryLease('sweep', 60_000, job),
      claims.tryLease('sweep', 60_000, job),
    ]);
    expect([one, two].filter((r) => r.held)).toEqual([{ held: true, value: 'done' }]);
    expect(inside).toBe(1);
    await expect(claims.tryLease('sweep', 60_000, async () => 'again')).resolves.toEqual({
      held: true,
      value: 'again',
    });
    await expect(
      claims.tryLease('sweep', 60_000, async () => {
        throw new Error('failed');
      }),
    ).rejects.toThrow('failed');
    expect(await claims.get('sweep')).toBeNull();
  });

  it('waits for a held lease, then holds it alone; a caller that waits too long is told busy', async () => {
    const one = createClaims(conn, 'claims_wait');
    const two = createClaims(conn, 'claims_wait'); // another instance on the same database
    const spans: Array<[number, number]> = [];
    const change = async () => {
      const start = performance.now();
      await sleep(60);
      spans.push([start, performance.now()]);
    };
    const opts = { ms: 60_000, waitMs: 5_000, busy: () => new Error('busy') };
    await Promise.all([
      one.withLease('owner', change, opts),
      two.withLease('owner', change, opts),
      one.withLease('owner', change, { ...opts, queue: true }),
      one.withLease('owner', change, { ...opts, queue: true }),
    ]);
    spans.sort((x, y) => x[0] - y[0]);
    expect(spans).toHaveLength(4);
    for (let i = 1; i < spans.length; i++) expect(spans[i]?.[0]).toBeGreaterThanOrEqual(spans[i - 1]?.[1] ?? 0);

    const held = await one.claim('owner', { expire: new Date(Date.now() + 60_000) });
    const t0 = Date.now();
    await expect(two.withLease('owner', async () => 'never', { ...opts, waitMs: 200 })).rejects.toThrow('busy');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(200);
    await one.release(held as NonNullable<typeof held>);
    await expect(two.withLease('owner', async () => 'now', opts)).resolves.toBe('now');
  });
});
