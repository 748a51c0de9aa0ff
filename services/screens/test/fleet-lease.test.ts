// One member's fleet changes run one at a time across instances (across replicas): the overlap
// check of a takeover and the group and template limits read, then write; two instances interleaving would both pass.
// Each instance serialises its own calls in memory; across instances the owner's lease (an insert under a unique key)
// does. Two instances here are two service contexts on one database, calling the lease directly (the in-memory chain
// is per process, and both contexts live in this one).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLEET_LEASE_MS, withFleetLease } from '../src/use-cases/fleet-lease';
import { startReplica, startService, type TestService } from './helpers';

let a: TestService;
let b: TestService;
beforeAll(async () => {
  a = await startService();
  b = await startReplica(a);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("an owner's fleet lease", () => {
  it('runs the changes of one owner on two instances one after the other, never together', async () => {
    const owner = randomUUID();
    const spans: Array<[number, number]> = [];
    const change = async () => {
      const start = performance.now();
      await sleep(150); // a check and its write, stretched so that an interleaving would show
      spans.push([start, performance.now()]);
    };
    await Promise.all([
      withFleetLease(a.server.context, owner, change),
      withFleetLease(b.server.context, owner, change),
      withFleetLease(a.server.context, owner, change),
      withFleetLease(b.server.context, owner, change),
    ]);
    spans.sort((x, y) => x[0] - y[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]?.[0]).toBeGreaterThanOrEqual(spans[i - 1]?.[1] ?? 0);
  });

  it('lets other owners change at the same time, and frees the lease when a change fails', async () => {
    const one = randomUUID();
    const two = randomUUID();
    let together = false;
    let running = 0;
    const change = async () => {
      running += 1;
      if (running > 1) together = true;
      await sleep(100);
      running -= 1;
    };
    await Promise.all([withFleetLease(a.server.context, one, change), withFleetLease(b.server.context, two, change)]);
    expect(together).toBe(true);
    await expect(
      withFleetLease(a.server.context, one, async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    // released at once, not after FLEET_LEASE_MS
    const t0 = performance.now();
    await withFleetLease(b.server.context, one, async () => {});
    expect(performance.now() - t0).toBeLessThan(FLEET_LEASE_MS);
  });
});
