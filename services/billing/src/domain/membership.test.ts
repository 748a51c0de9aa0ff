import { describe, expect, it } from 'vitest';
import {
  downgradeRefusal,
  type Membership,
  monthlyPrice,
  nextRenewal,
  renewalDueAt,
  renewalFailed,
  renewalPlan,
  trialExpired,
  upgradeCost,
  upgraded,
  upgradeOffer,
  upgradeRefusal,
  upgradeTargets,
  withDowngrade,
} from './membership';

const base: Membership = {
  memberId: 'm',
  tier: 'trial',
  registeredAt: new Date('2026-11-01T00:00:00Z'),
  pendingDowngradeTier: null,
  downgradeEffectiveMonth: null,
  paidMonth: null,
  renewalAnchor: null,
  notice: null,
};
const at = (tier: Membership['tier'], extra: Partial<Membership> = {}): Membership => ({ ...base, tier, ...extra });

describe('upgrades (spec point 4)', () => {
  it.each([
    ['free', 'standard', null],
    ['free', 'creator', null],
    ['trial', 'standard', null],
    ['trial', 'creator', null],
    ['standard', 'creator', null],
    ['standard', 'standard', 'UPGRADE_NOT_ALLOWED'],
    ['creator', 'standard', 'UPGRADE_NOT_ALLOWED'],
    ['creator', 'creator', 'UPGRADE_NOT_ALLOWED'],
    ['300point', 'standard', 'UPGRADE_NOT_ALLOWED'],
    ['3000point', 'creator', 'UPGRADE_NOT_ALLOWED'],
  ] as const)('%s → %s: %s', (from, to, refusal) => {
    expect(upgradeRefusal(at(from), to)).toBe(refusal);
  });

  it('refuses an upgrade while a downgrade is pending', () => {
    expect(
      upgradeRefusal(at('standard', { pendingDowngradeTier: 'free', downgradeEffectiveMonth: 202612 }), 'creator'),
    ).toBe('UPGRADE_NOT_ALLOWED');
  });

  it('costs standard 3000 and creator 5000; the paid month starts at the upgrade (Tokyo month of the payment)', () => {
    expect(upgradeCost('standard')).toBe(3000);
    expect(upgradeCost('creator')).toBe(5000);
    const paidAt = new Date('2026-11-30T16:00:00Z'); // 1 December 01:00 in Tokyo
    const m = upgraded(at('trial'), 'creator', paidAt);
    expect(m).toMatchObject({ tier: 'creator', paidMonth: 202612, renewalAnchor: paidAt, notice: null });
  });

  it('offers the allowed upgrades with their cost and first renewal one calendar month later, none while a downgrade is pending', () => {
    const now = new Date('2027-01-31T03:00:00Z'); // 31 January 12:00 in Tokyo
    expect(upgradeTargets(at('trial'))).toEqual(['standard', 'creator']);
    expect(upgradeTargets(at('standard'))).toEqual(['creator']);
    expect(upgradeTargets(at('creator', { pendingDowngradeTier: 'free', downgradeEffectiveMonth: 202702 }))).toEqual(
      [],
    );
    expect(upgradeOffer('standard', now)).toEqual({
      membershipTier: 'standard',
      cost: 3000,
      renewsAt: new Date('2027-02-28T03:00:00Z'),
      renewalPoints: 3000,
    });
  });
});

describe('downgrades (spec point 4)', () => {
  it.each([
    ['standard', 'free', null],
    ['300point', 'free', null],
    ['creator', 'free', null],
    ['creator', 'standard', null],
    ['3000point', 'free', null],
    ['3000point', 'standard', null],
    ['standard', 'standard', 'DOWNGRADE_NOT_ALLOWED'],
    ['free', 'free', 'DOWNGRADE_NOT_ALLOWED'],
    ['trial', 'free', 'DOWNGRADE_NOT_ALLOWED'],
    ['300point', 'standard', 'DOWNGRADE_NOT_ALLOWED'],
  ] as const)('%s → %s: %s', (from, to, refusal) => {
    expect(downgradeRefusal(at(from), to)).toBe(refusal);
  });

  it('reserves for the next renewal (a plan stored before renewal dates: the 1st of next month in Tokyo) and refuses a second reservation', () => {
    const m = withDowngrade(at('creator', { paidMonth: 202701 }), 'standard', new Date('2026-12-31T15:30:00Z'));
    expect(m).toMatchObject({ pendingDowngradeTier: 'standard', downgradeEffectiveMonth: 202702 });
    expect(downgradeRefusal(m, 'free')).toBe('DOWNGRADE_ALREADY_PENDING');
  });

  it("reserves for the member's own renewal day: upgraded 26 November → takes effect 26 December", () => {
    const paid = upgraded(at('trial'), 'creator', new Date('2026-11-26T05:00:00Z'));
    const m = withDowngrade(paid, 'free', new Date('2026-12-10T00:00:00Z'));
    expect(m.downgradeEffectiveMonth).toBe(202612);
    expect(nextRenewal(m, new Date('2026-12-10T00:00:00Z'))).toEqual({
      at: new Date('2026-12-26T05:00:00Z'),
      month: 202612,
      points: 0,
    });
    const toStandard = withDowngrade(paid, 'standard', new Date('2026-12-26T05:00:00Z')); // the renewal instant
    expect(toStandard.downgradeEffectiveMonth).toBe(202612); // not run yet: that renewal applies it
  });
});

describe('trial and monthly renewal', () => {
  it('ends the trial 30 days after registration, not a millisecond before', () => {
    const end = new Date(base.registeredAt.getTime() + 30 * 86400_000);
    expect(trialExpired(at('trial'), new Date(end.getTime() - 1))).toBeNull();
    expect(trialExpired(at('trial'), end)).toMatchObject({ tier: 'free', notice: 'trial-ended' });
    expect(trialExpired(at('standard'), end)).toBeNull();
  });

  // plans stored before renewal dates (renewalAnchor null) renew on the 1st at 00:00 Tokyo
  const dec1 = new Date('2026-11-30T15:00:00Z');
  const dec10 = new Date('2026-12-10T00:00:00Z');

  it('charges a paid plan once per month', () => {
    const m = at('standard', { paidMonth: 202611 });
    expect(renewalPlan(m, new Date(dec1.getTime() - 1))).toBeNull();
    const plan = renewalPlan(m, dec1);
    expect(plan).toMatchObject({ month: 202612, charge: 3000, plan: { tier: 'standard', paidMonth: 202612 } });
    expect(renewalPlan(plan?.plan as Membership, dec10)).toBeNull();
    expect(monthlyPrice('creator')).toBe(5000);
    expect(monthlyPrice('free')).toBe(0);
    expect(monthlyPrice('trial')).toBe(0);
  });

  it("renews on the member's own day: the upgrade's day and time, the last day of a shorter month", () => {
    const paidAt = new Date('2027-01-31T01:30:00Z'); // 31 January 10:30 in Tokyo
    const m = upgraded(at('trial'), 'standard', paidAt);
    expect([202702, 202703, 202704, 202802].map((k) => renewalDueAt(m, k).toISOString())).toEqual([
      '2027-02-28T01:30:00.000Z',
      '2027-03-31T01:30:00.000Z',
      '2027-04-30T01:30:00.000Z',
      '2028-02-29T01:30:00.000Z',
    ]);
    expect(renewalPlan(m, new Date('2027-02-28T01:29:59Z'))).toBeNull();
    expect(renewalPlan(m, new Date('2027-02-28T01:30:00Z'))).toMatchObject({ month: 202702, charge: 3000 });
    expect(nextRenewal(m, paidAt)).toEqual({ at: new Date('2027-02-28T01:30:00Z'), month: 202702, points: 3000 });
  });

  it('a renewal missed for months charges once, for the latest due month', () => {
    const m = upgraded(at('trial'), 'standard', new Date('2027-01-10T00:00:00Z'));
    expect(renewalPlan(m, new Date('2027-04-20T00:00:00Z'))).toMatchObject({ month: 202704, charge: 3000 });
    // overdue: the next run renews it, shown as its due date
    expect(nextRenewal(m, new Date('2027-04-20T00:00:00Z'))?.at).toEqual(new Date('2027-04-10T00:00:00Z'));
  });

  it('applies a due downgrade before charging: creator → standard pays 3000, → free pays nothing', () => {
    const toStandard = at('creator', {
      paidMonth: 202611,
      pendingDowngradeTier: 'standard',
      downgradeEffectiveMonth: 202612,
    });
    expect(renewalPlan(toStandard, dec1)).toMatchObject({
      charge: 3000,
      plan: { tier: 'standard', pendingDowngradeTier: null, downgradeEffectiveMonth: null },
    });
    expect(nextRenewal(toStandard, dec1)).toMatchObject({ month: 202612, points: 3000 });
    const toFree = at('standard', { paidMonth: 202611, pendingDowngradeTier: 'free', downgradeEffectiveMonth: 202612 });
    expect(renewalPlan(toFree, dec1)).toMatchObject({
      charge: 0,
      plan: { tier: 'free', pendingDowngradeTier: null },
    });
  });

  it('keeps a downgrade reserved for a later month pending', () => {
    const m = at('creator', { paidMonth: 202611, pendingDowngradeTier: 'free', downgradeEffectiveMonth: 202701 });
    expect(renewalPlan(m, dec1)).toMatchObject({
      charge: 5000,
      plan: { tier: 'creator', pendingDowngradeTier: 'free' },
    });
  });

  it('moves a member who cannot pay to free with the notice', () => {
    expect(renewalFailed(at('creator'))).toMatchObject({ tier: 'free', notice: 'renewal-failed' });
  });

  it('shows the next renewal of a plan stored before renewal dates on the 1st of next month in Tokyo, none for unpaid plans', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(nextRenewal(at('standard', { paidMonth: 202611 }), now)).toEqual({ at: dec1, month: 202612, points: 3000 });
    expect(nextRenewal(at('free'), now)).toBeNull();
    expect(nextRenewal(at('trial'), now)).toBeNull();
  });
});
