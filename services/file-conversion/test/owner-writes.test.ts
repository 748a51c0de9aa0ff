// An owner's read model (tier and points) is written by two consumers at once: account's registrations and billing's
// tier and balance events run side by side, in one process and across replicas. FerretDB runs each update as
// read-then-write of the whole document, so a tier written beside a balance could put the other back. Both must hold.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

describe("an owner's tier and points written at once", () => {
  it('keeps both, every round', async () => {
    const { owners } = svc.server.context.data;
    const userId = `u-${randomUUID()}`;
    await owners.ensure(userId);
    const lost: string[] = [];
    for (let round = 0; round < 60; round++) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, round));
      const tier = round % 2 === 0 ? 'standard' : 'creator';
      await Promise.all([owners.setTier(userId, tier, at), owners.setPoints(userId, 1000 + round, at)]);
      const stored = await owners.ensure(userId);
      if (stored.membershipTier !== tier) lost.push(`round ${round}: the tier`);
      if (stored.points !== 1000 + round) lost.push(`round ${round}: the points`);
    }
    expect(lost).toEqual([]);
  });
});
