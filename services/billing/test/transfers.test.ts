import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_ACCOUNT } from '../src/domain/fees';
import {
  call,
  checkLedger,
  credit,
  destroyBilling,
  registerMember,
  serviceCall,
  startBilling,
  type TestService,
} from './helpers';

let svc: TestService;
beforeAll(async () => {
  svc = await startBilling();
});
afterAll(async () => {
  await destroyBilling(svc);
});

const balance = (id: string) => svc.server.context.data.ledger.balance(id);
const transfer = (body: Record<string, unknown>) => serviceCall(svc, 'POST', '/internal/transfers', body);

async function pair(buyerPoints = 20_000) {
  const buyer = await registerMember(svc);
  const seller = await registerMember(svc);
  await credit(svc, buyer, buyerPoints - 300);
  return { buyer, seller };
}

describe('internal transfers (marketplace purchases)', () => {
  it.each([
    [3000, 1000, 2000],
    [5000, 1500, 3500],
    [10000, 3000, 7000],
  ])('price %i: buyer pays it, seller earns %i less the fee, the platform keeps the fee', async (price, fee, net) => {
    const { buyer, seller } = await pair();
    const platformBefore = await balance(PLATFORM_ACCOUNT);
    const res = await transfer({
      transferId: randomUUID(),
      buyerId: buyer,
      sellerId: seller,
      fileId: 'f1',
      price,
      description: 'Deck',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'applied', price, fee, net, buyerBalance: 20_000 - price });
    expect(await balance(buyer)).toBe(20_000 - price);
    expect(await balance(seller)).toBe(300 + net);
    expect((await balance(PLATFORM_ACCOUNT)) - platformBefore).toBe(fee);
  });

  it('charges once when the same transferId is sent again, even concurrently', async () => {
    const { buyer, seller } = await pair(10_000);
    const body = { transferId: randomUUID(), buyerId: buyer, sellerId: seller, fileId: 'f2', price: 3000 };
    const answers = await Promise.all(Array.from({ length: 6 }, () => transfer(body)));
    for (const a of answers) expect(['applied', 'pending']).toContain(a.body.status);
    const again = await transfer(body);
    expect(again.body).toMatchObject({ status: 'applied', buyerBalance: 7000 });
    expect(await balance(buyer)).toBe(7000);
    expect(await balance(seller)).toBe(2300);
    const lookup = await serviceCall(svc, 'GET', `/internal/transfers/${body.transferId}`);
    expect(lookup.body).toMatchObject({ status: 'applied', buyerBalance: 7000 });
  });

  it('refuses and moves nothing: short points, own file, invalid price, wrong fee, free buyer, same id with another body', async () => {
    const { buyer, seller } = await pair(2999);
    const free = await registerMember(svc, { tier: 'free' });
    await credit(svc, free, 10_000);
    const base = { buyerId: buyer, sellerId: seller, fileId: 'f3' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, price: 3000 }, 'INSUFFICIENT_POINTS'],
      [{ ...base, sellerId: buyer, price: 3000 }, 'CANNOT_BUY_OWN_FILE'],
      [{ ...base, price: 2999 }, 'TRANSFER_INVALID_PRICE'],
      [{ ...base, price: 3000, platformFee: 500, sellerNet: 2500 }, 'TRANSFER_INVALID_PRICE'],
      [{ ...base, buyerId: free, price: 3000 }, 'FREE_TIER_CANNOT_PURCHASE'],
    ];
    for (const [body, code] of cases) {
      const res = await transfer({ transferId: randomUUID(), ...body });
      expect(res.body, code).toMatchObject({ status: 'refused', code });
    }
    const id = randomUUID();
    await credit(svc, buyer, 5000);
    expect((await transfer({ transferId: id, ...base, price: 3000 })).body.status).toBe('applied');
    const other = await transfer({ transferId: id, ...base, price: 5000 });
    expect(other.body).toMatchObject({ status: 'refused', code: 'TRANSFER_MISMATCH' });
    expect(await balance(buyer)).toBe(2999 + 5000 - 3000);
    expect(await balance(free)).toBe(10_300);
  });

  it('rejects a malformed body with VALIDATION and records nothing', async () => {
    const id = randomUUID();
    for (const body of [
      {},
      { transferId: id, buyerId: 'a', sellerId: 'b', fileId: 'f', price: 'x' },
      { transferId: id, price: 3000 },
    ]) {
      const res = await transfer(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION');
    }
    expect(await svc.server.context.data.transfers.get(id)).toBeNull();
  });

  it('is not for members: a member identity gets 403, no identity 401', async () => {
    const { buyer, seller } = await pair();
    const body = { transferId: randomUUID(), buyerId: buyer, sellerId: seller, fileId: 'f', price: 3000 };
    expect((await call(svc, buyer, 'POST', '/internal/transfers', body)).status).toBe(403);
    expect((await call(svc, undefined, 'POST', '/internal/transfers', body)).status).toBe(401);
    expect(await balance(buyer)).toBe(20_000);
  });

  it("answers 'absent' for a transfer it never saw, and then refuses that id for ever", async () => {
    const { buyer, seller } = await pair();
    const id = randomUUID();
    expect((await serviceCall(svc, 'GET', `/internal/transfers/${id}`)).body).toEqual({
      status: 'absent',
      transferId: id,
    });
    const late = await transfer({ transferId: id, buyerId: buyer, sellerId: seller, fileId: 'f', price: 3000 });
    expect(late.body).toMatchObject({ status: 'refused', code: 'TRANSFER_ABANDONED' });
    expect(await balance(buyer)).toBe(20_000);
  });

  it('finishes a transfer a crash left after the buyer paid (the sweeper applies the missing legs once)', async () => {
    const { buyer, seller } = await pair();
    const ctx = svc.server.context;
    const id = randomUUID();
    const old = new Date(Date.now() - 3600_000);
    await ctx.data.transfers.record({
      _id: id,
      buyerId: buyer,
      sellerId: seller,
      fileId: 'f',
      price: 5000,
      fee: 1500,
      net: 3500,
      description: null,
      state: 'started',
      code: null,
      buyerBalance: null,
      createdAt: old,
      appliedAt: null,
    });
    const { postEntry } = await import('../src/use-cases/post-entry');
    await postEntry(ctx, {
      accountId: buyer,
      amount: -5000,
      type: 'spend',
      reason: { kind: 'purchase', title: null },
      key: `transfer:${id}:buyer`,
    });
    const { sweepTransfers } = await import('../src/use-cases/transfer-points');
    expect(await sweepTransfers(ctx)).toBeGreaterThanOrEqual(1);
    expect(await sweepTransfers(ctx)).toBe(0);
    expect(await balance(buyer)).toBe(15_000);
    expect(await balance(seller)).toBe(3800);
    expect((await serviceCall(svc, 'GET', `/internal/transfers/${id}`)).body).toMatchObject({ status: 'applied' });
    await checkLedger(svc);
  });
});
