import { describe, expect, it } from 'vitest';
import { renewalOf } from '../src/features/dashboard/components/dashboard-model';
import { signedPoints } from '../src/features/points/model/history-icon';
import { downgradeOptions, monthToDate, upgradeOptions } from '../src/features/points/model/membership-options';

describe('membership options (spec point 4)', () => {
  const offer = (membershipTier: 'standard' | 'creator', cost: number) => ({
    membershipTier,
    cost,
    renewsAt: '2026-12-26T05:00:00.000Z',
    renewalPoints: cost,
  });

  it('offers billing’s upgrades at billing’s cost, each disabled below it', () => {
    const offers = [offer('standard', 3000), offer('creator', 5000)];
    expect(upgradeOptions(offers, 2999)).toEqual([
      { tier: 'standard', cost: 3000, affordable: false, renewsAt: '2026-12-26T05:00:00.000Z', renewalPoints: 3000 },
      { tier: 'creator', cost: 5000, affordable: false, renewsAt: '2026-12-26T05:00:00.000Z', renewalPoints: 5000 },
    ]);
    expect(upgradeOptions(offers, 3000).map((o) => o.affordable)).toEqual([true, false]);
    expect(upgradeOptions(offers, 5000).map((o) => o.affordable)).toEqual([true, true]);
    // a changed price is billing's, not the bundled table's
    expect(upgradeOptions([offer('standard', 3500)], 3000)).toMatchObject([{ cost: 3500, affordable: false }]);
  });

  it('offers nothing when billing offers nothing (creator, or a downgrade pending)', () => {
    expect(upgradeOptions([], 10000)).toEqual([]);
    expect(upgradeOptions(undefined, 10000)).toEqual([]);
  });

  it('downgrades: standard and 300point → free; creator and 3000point → free or standard; none from free/trial', () => {
    expect(downgradeOptions('standard')).toEqual(['free']);
    expect(downgradeOptions('300point')).toEqual(['free']);
    expect(downgradeOptions('creator')).toEqual(['free', 'standard']);
    expect(downgradeOptions('3000point')).toEqual(['free', 'standard']);
    expect(downgradeOptions('free')).toEqual([]);
    expect(downgradeOptions('trial')).toEqual([]);
  });

  it('reads the YYYYMM effective month', () => {
    expect(monthToDate(202701)?.getFullYear()).toBe(2027);
    expect(monthToDate(202701)?.getMonth()).toBe(0);
    expect(monthToDate(202612)?.getMonth()).toBe(11);
    expect(monthToDate(202613)).toBeNull();
    expect(monthToDate(null)).toBeNull();
  });
});

describe('history amounts', () => {
  it('are signed in the reader’s number format', () => {
    expect(signedPoints(3000, 'ja')).toBe('+3,000');
    expect(signedPoints(-5000, 'ja')).toBe('-5,000');
    expect(signedPoints(0, 'ja')).toBe('0');
  });
});

describe('dashboard renewal line', () => {
  it('uses billing’s dates: trial end for a trial, the next renewal for paid plans, none for free', () => {
    const trialEndsAt = '2026-12-20T03:00:00.000Z';
    const renewsAt = '2026-12-26T05:00:00.000Z';
    expect(renewalOf({ membershipTier: 'trial', trialEndsAt, renewsAt: null })).toEqual({
      kind: 'trial-ends',
      date: new Date(trialEndsAt),
    });
    expect(renewalOf({ membershipTier: 'standard', trialEndsAt: null, renewsAt })).toEqual({
      kind: 'renewal',
      date: new Date(renewsAt),
    });
    expect(renewalOf({ membershipTier: 'free', trialEndsAt, renewsAt: null })).toEqual({ kind: 'none' });
  });
});
