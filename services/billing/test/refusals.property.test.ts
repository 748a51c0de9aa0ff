// A refused call changes nothing: calls that the caller's role may not make in a workspace (drawn over every billing
// route a role is refused: plan changes paid from the owner's points, and any call of a forged 'owner'; valid or
// random bodies) are each answered 403 FORBIDDEN_ROLE, and afterwards every collection, the events and the mails are
// as they were (service-kit's refusal-property).
import { refusalsChangeNothing } from '@pagecast/service-kit/refusal-property';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger, credit, destroyBilling, registerMember, startBilling, type TestService } from './helpers';

let svc: TestService;
beforeAll(async () => {
  svc = await startBilling();
});
afterAll(async () => {
  await destroyBilling(svc);
});

describe('refused calls', () => {
  it('change nothing: every collection, the events and the mails stay as they were', async () => {
    const owner = await registerMember(svc);
    await credit(svc, owner, 3000);
    const report = await refusalsChangeNothing({
      service: 'billing',
      baseUrl: svc.server.url,
      secret: svc.env.INTERNAL_SECRET ?? '',
      conn: svc.server.context.conn,
      nc: svc.server.context.nats.nc,
      workspaceId: owner,
      ids: [],
      numRuns: 100,
    });
    console.log('[refusals] billing', JSON.stringify(report));
    expect(report.runs).toBe(100);
    expect(await svc.server.context.data.ledger.balance(owner)).toBe(3300);
    await checkLedger(svc);
  }, 60_000);
});
