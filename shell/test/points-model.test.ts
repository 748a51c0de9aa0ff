import { describe, expect, it } from 'vitest';
import { renewalOf } from '../src/features/dashboard/components/dashboard-model';
import { signedPoints } from '../src/features/points/model/history-icon';
import { downgradeOptions, monthToDate, upgradeOptions } from '../src/features/points/model/membership-options';

describe('membership options (spec point 4)', () => {
  it('free and trial can go to standard (3000) or creator (5000), each disabled below its cost', () => {
    for (const tier of ['free', 'trial']) {
      expect(upgradeOptions(tier, 2999)).toEqual([
        { tier: 'standard', cost: 3000, affordable: false },
        { tier: 'creator', cost: 5000, affordable: false },
      ]);
      expect(upgradeOptions(tier, 3000).map((o) => o.affordable)).toEqual([true, false]);
      expect(upgradeOptions(tier, 5000).map((o) => o.affordable)).toEqual([true, true]);
    }
  });

  it('standard can only go up to creator; creator cannot upgrade', () => {
    expect(upgradeOptions('standard', 10000)).toEqual([{ tier: 'creator', cost: 5000, affordable: true }]);
    expect(upgradeOptions('creator', 10000)).toEqual([]);
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
    const nextRenewalAt = '2026-11-30T15:00:00.000Z';
    expect(renewalOf({ membershipTier: 'trial', trialEndsAt, nextRenewalAt: null })).toEqual({
      kind: 'trial-ends',
      date: new Date(trialEndsAt),
    });
    expect(renewalOf({ membershipTier: 'standard', trialEndsAt: null, nextRenewalAt })).toEqual({
      kind: 'renewal',
      date: new Date(nextRenewalAt),
    });
    expect(renewalOf({ membershipTier: 'free', trialEndsAt, nextRenewalAt: null })).toEqual({ kind: 'none' });
  });
});
