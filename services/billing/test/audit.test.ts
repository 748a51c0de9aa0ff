// Audit entries of plan changes, against the real service: an upgrade, a scheduled downgrade and its cancellation
// (the member who asked and their address), the downgrade taking effect at the renewal and a trial's end (the job:
// system:billing, no address), each once in the workspace whose owner pays, with the plan before and after; a
// refused change none; the announcement sweep repeating a version's announcement chains nothing twice.
import { AUDIT_SYSTEM_ACTORS, AuditEntry, subjects } from '@pagecast/contracts';
import { clientAddressHeaders } from '@pagecast/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announcePending } from '../src/use-cases/announce-pending';
import { call, credit, destroyBilling, registerMember, startBilling, type TestService } from './helpers';

let svc: TestService;
beforeAll(async () => {
  svc = await startBilling();
});
afterAll(async () => {
  svc.server.context.clock.set(null);
  await destroyBilling(svc);
});

const ADDRESS = '192.0.2.61';
const as = (
  who: string | { userId: string; workspaceId: string; role: 'admin' },
  method: string,
  path: string,
  body?: unknown,
) => call(svc, who, method, path, body, clientAddressHeaders(ADDRESS, svc.env.INTERNAL_SECRET ?? ''));
const setClock = (at: Date | null) => svc.server.context.clock.set(at);
const runJobs = async () => expect((await call(svc, undefined, 'POST', '/internal/test/run-jobs')).status).toBe(200);

async function planEntries(workspaceId: string): Promise<AuditEntry[]> {
  const all = await svc.server.context.outbox.entries({ subject: subjects.auditBilling });
  return all
    .map((e) => AuditEntry.parse(e.data))
    .filter((e) => e.workspaceId === workspaceId && e.object.type === 'plan')
    .sort((a, b) => a.at.localeCompare(b.at));
}

describe('audit entries of plan changes', () => {
  it('upgrade, scheduled downgrade, its cancellation, and the downgrade taking effect, each once with before and after', async () => {
    try {
      setClock(new Date('2026-11-20T00:00:00Z'));
      const owner = await registerMember(svc, { registeredAt: new Date('2026-11-20T00:00:00Z') });
      await credit(svc, owner, 6_000);
      const admin = { userId: `admin-${owner}`.slice(0, 60), workspaceId: owner, role: 'admin' as const };

      setClock(new Date('2026-11-26T05:00:00Z'));
      const up = await as(admin, 'POST', '/api/membership/upgrade', { membershipTier: 'standard', expectedCost: 3000 });
      expect(up.status).toBe(200);
      // the same call again (a retry): refused, no second entry
      const again = await as(admin, 'POST', '/api/membership/upgrade', {
        membershipTier: 'standard',
        expectedCost: 3000,
      });
      expect(again.status).toBe(409);
      expect((await as(owner, 'POST', '/api/membership/schedule-downgrade', { targetTier: 'free' })).status).toBe(200);
      expect((await as(owner, 'DELETE', '/api/membership/cancel-downgrade')).status).toBe(200);
      // nothing pending any more: refused, no entry
      expect((await as(owner, 'DELETE', '/api/membership/cancel-downgrade')).status).toBe(409);
      expect((await as(owner, 'POST', '/api/membership/schedule-downgrade', { targetTier: 'free' })).status).toBe(200);

      let entries = await planEntries(owner);
      expect(entries.map((e) => e.action)).toEqual([
        'plan.upgraded',
        'plan.downgrade-scheduled',
        'plan.downgrade-cancelled',
        'plan.downgrade-scheduled',
      ]);
      expect(entries[0]).toMatchObject({
        workspaceId: owner,
        actorUserId: admin.userId,
        address: ADDRESS,
        object: { type: 'plan', id: owner },
        before: { tier: 'trial', pendingDowngradeTier: null },
        after: { tier: 'standard', pendingDowngradeTier: null, pointsCharged: 3000 },
      });
      expect(entries[1]).toMatchObject({
        actorUserId: owner,
        address: ADDRESS,
        before: { tier: 'standard', pendingDowngradeTier: null, downgradeEffectiveMonth: null },
        after: { tier: 'standard', pendingDowngradeTier: 'free', downgradeEffectiveMonth: 202612 },
      });
      expect(entries[2]).toMatchObject({
        before: { pendingDowngradeTier: 'free' },
        after: { pendingDowngradeTier: null },
      });

      // the announcement sweep repeats every version's announcement (as after a crash): the same entries, once
      const models = svc.server.context.conn.collection('memberships');
      await models.updateMany({ memberId: owner }, { $set: { announced: false, createdAt: new Date(0) } });
      await announcePending(svc.server.context);
      expect((await planEntries(owner)).map((e) => e.id)).toEqual(entries.map((e) => e.id));

      // the renewal on 26 December applies the downgrade: an entry by the job
      setClock(new Date('2026-12-26T05:00:01Z'));
      await runJobs();
      await runJobs();
      entries = await planEntries(owner);
      expect(entries).toHaveLength(5);
      expect(entries[4]).toMatchObject({
        actorUserId: AUDIT_SYSTEM_ACTORS.billing,
        address: '',
        action: 'plan.downgraded',
        before: { tier: 'standard', pendingDowngradeTier: 'free' },
        after: { tier: 'free', pendingDowngradeTier: null, downgradeEffectiveMonth: null },
      });
    } finally {
      setClock(null);
    }
  });

  it('a trial’s end is an entry by the job; a renewal that keeps the plan none', async () => {
    try {
      setClock(new Date('2026-10-01T00:00:00Z'));
      const trial = await registerMember(svc, { registeredAt: new Date('2026-10-01T00:00:00Z') });
      const paying = await registerMember(svc, { registeredAt: new Date('2026-10-01T00:00:00Z') });
      await credit(svc, paying, 9_000);
      setClock(new Date('2026-10-02T00:00:00Z'));
      expect(
        (await as(paying, 'POST', '/api/membership/upgrade', { membershipTier: 'standard', expectedCost: 3000 }))
          .status,
      ).toBe(200);
      setClock(new Date('2026-11-03T00:00:00Z'));
      await runJobs();
      const ended = await planEntries(trial);
      expect(ended).toHaveLength(1);
      expect(ended[0]).toMatchObject({
        actorUserId: AUDIT_SYSTEM_ACTORS.billing,
        action: 'plan.trial-ended',
        before: { tier: 'trial' },
        after: { tier: 'free' },
      });
      // renewed on 2 November on the same plan: the upgrade's entry only
      expect((await planEntries(paying)).map((e) => e.action)).toEqual(['plan.upgraded']);
    } finally {
      setClock(null);
    }
  });
});
