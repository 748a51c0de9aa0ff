import { describe, expect, it } from 'vitest';
import {
  downgradeRefusal,
  type Membership,
  monthlyPrice,
  nextRenewalAt,
  renewalFailed,
  renewalPlan,
  trialExpired,
  upgradeCost,
  upgraded,
  upgradeRefusal,
  withDowngrade,
} from './membership';

const base: Membership = {
  memberId: 'm',
  tier: 'trial',
  registeredAt: new Date('2026-11-01T00:00:00Z'),
  pendingDowngradeTier: null,
  downgradeEffectiveMonth: null,
  paidMonth: null,
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

  it('costs standard 3000 and creator 5000, and counts as paid for the current Tokyo month', () => {
    expect(upgradeCost('standard')).toBe(3000);
    expect(upgradeCost('creator')).toBe(5000);
    const m = upgraded(at('trial'), 'creator', new Date('2026-11-30T16:00:00Z'));
    expect(m).toMatchObject({ tier: 'creator', paidMonth: 202612, notice: null });
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

  it('reserves for the 1st of next month in Tokyo and refuses a second reservation', () => {
    const m = withDowngrade(at('creator'), 'standard', new Date('2026-12-31T15:30:00Z'));
    expect(m).toMatchObject({ pendingDowngradeTier: 'standard', downgradeEffectiveMonth: 202702 });
    expect(downgradeRefusal(m, 'free')).toBe('DOWNGRADE_ALREADY_PENDING');
  });
});

describe('trial and monthly renewal', () => {
  it('ends the trial 30 days after registration, not a millisecond before', () => {
    const end = new Date(base.registeredAt.getTime() + 30 * 86400_000);
    expect(trialExpired(at('trial'), new Date(end.getTime() - 1))).toBeNull();
    expect(trialExpired(at('trial'), end)).toMatchObject({ tier: 'free', notice: 'trial-ended' });
    expect(trialExpired(at('standard'), end)).toBeNull();
  });

  it('charges a paid plan once per month', () => {
    const m = at('standard', { paidMonth: 202611 });
    expect(renewalPlan(m, 202611)).toBeNull();
    const plan = renewalPlan(m, 202612);
    expect(plan).toMatchObject({ charge: 3000, plan: { tier: 'standard', paidMonth: 202612 } });
    expect(renewalPlan(plan?.plan as Membership, 202612)).toBeNull();
    expect(monthlyPrice('creator')).toBe(5000);
    expect(monthlyPrice('free')).toBe(0);
    expect(monthlyPrice('trial')).toBe(0);
  });

  it('applies a due downgrade before charging: creator → standard pays 3000, → free pays nothing', () => {
    const toStandard = at('creator', {
      paidMonth: 202611,
      pendingDowngradeTier: 'standard',
      downgradeEffectiveMonth: 202612,
    });
    expect(renewalPlan(toStandard, 202612)).toMatchObject({
      charge: 3000,
      plan: { tier: 'standard', pendingDowngradeTier: null, downgradeEffectiveMonth: null },
    });
    const toFree = at('standard', { paidMonth: 202611, pendingDowngradeTier: 'free', downgradeEffectiveMonth: 202612 });
    expect(renewalPlan(toFree, 202612)).toMatchObject({
      charge: 0,
      plan: { tier: 'free', pendingDowngradeTier: null },
    });
  });

  it('keeps a downgrade reserved for a later month pending', () => {
    const m = at('creator', { paidMonth: 202611, pendingDowngradeTier: 'free', downgradeEffectiveMonth: 202701 });
    expect(renewalPlan(m, 202612)).toMatchObject({
      charge: 5000,
      plan: { tier: 'creator', pendingDowngradeTier: 'free' },
    });
  });

  it('moves a member who cannot pay to free with the notice', () => {
    expect(renewalFailed(at('creator'))).toMatchObject({ tier: 'free', notice: 'renewal-failed' });
  });

  it('shows the next renewal on the 1st of next month in Tokyo, none for unpaid plans', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(nextRenewalAt(at('standard', { paidMonth: 202611 }), now)?.toISOString()).toBe('2026-11-30T15:00:00.000Z');
    expect(nextRenewalAt(at('free'), now)).toBeNull();
    expect(nextRenewalAt(at('trial'), now)).toBeNull();
  });
});
