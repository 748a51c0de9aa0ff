// The owner pays: members acting in someone else's workspace (the workspace and their role there, as the gateway's
// signed identity names them) read the workspace's points and plan, which are its owner's; an admin changes the plan
// and the owner's points pay for it; an editor or a viewer may not spend them, and nothing changes when refused.
import { randomUUID } from 'node:crypto';
import type { WorkspaceRole } from '@pagecast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, checkLedger, credit, destroyBilling, registerMember, startBilling, type TestService } from './helpers';

let svc: TestService;
beforeAll(async () => {
  svc = await startBilling();
});
afterAll(async () => {
  await destroyBilling(svc);
});

const balance = (id: string) => svc.server.context.data.ledger.balance(id);
const as = (owner: string, role: WorkspaceRole, userId: string = randomUUID()) => ({
  userId,
  workspaceId: owner,
  role,
});

describe("spending a workspace's points", () => {
  it("an admin upgrades the workspace's plan, paid from the owner's points; their own points stay", async () => {
    const owner = await registerMember(svc);
    await credit(svc, owner, 3000);
    const adminId = await registerMember(svc);
    const admin = as(owner, 'admin', adminId);
    // the workspace's points and plan are the owner's
    expect((await call(svc, admin, 'GET', '/api/points/summary')).body).toMatchObject({ balance: 3300 });
    const up = await call(svc, admin, 'POST', '/api/membership/upgrade', {
      membershipTier: 'standard',
      expectedCost: 3000,
    });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(await balance(owner)).toBe(300);
    expect(await balance(adminId)).toBe(300);
    expect((await call(svc, owner, 'GET', '/api/membership/status')).body.membershipTier).toBe('standard');
    expect((await call(svc, adminId, 'GET', '/api/membership/status')).body.membershipTier).toBe('trial');
    await checkLedger(svc);
  });

  it('an editor or a viewer reads the plan but may not change it: 403 FORBIDDEN_ROLE, nothing charged', async () => {
    const owner = await registerMember(svc);
    await credit(svc, owner, 3000);
    const history = (await call(svc, owner, 'GET', '/api/points/history')).body;
    for (const role of ['editor', 'viewer', 'publisher', 'broadcaster'] as const) {
      const member = as(owner, role);
      expect((await call(svc, member, 'GET', '/api/membership/status')).body.membershipTier).toBe('trial');
      for (const [method, path, body] of [
        ['POST', '/api/membership/upgrade', { membershipTier: 'standard', expectedCost: 3000 }],
        ['POST', '/api/membership/schedule-downgrade', { targetTier: 'trial' }],
        ['DELETE', '/api/membership/cancel-downgrade', undefined],
      ] as const) {
        const r = await call(svc, member, method, path, body);
        expect({ status: r.status, code: r.body.code }, `${role} ${method} ${path}`).toEqual({
          status: 403,
          code: 'FORBIDDEN_ROLE',
        });
      }
    }
    expect(await balance(owner)).toBe(3300);
    expect((await call(svc, owner, 'GET', '/api/points/history')).body).toEqual(history);
    expect((await call(svc, owner, 'GET', '/api/membership/status')).body.membershipTier).toBe('trial');
  });
});
