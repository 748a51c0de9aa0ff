import { z } from 'zod';
import { defineRoutes } from '../route-def';
import { IsoDateTime, MembershipTier, OkResponse } from '../validation';

/** Upgrade targets (free/trial → standard or creator, standard → creator). */
export const UpgradeTier = z.enum(['standard', 'creator'], { error: 'validation.tierInvalid' });
export const DowngradeTier = z.enum(['free', 'standard'], { error: 'validation.tierInvalid' });

export const MembershipState = z.object({
  id: z.string(),
  membershipTier: MembershipTier,
  points: z.number().int().nonnegative(),
  pendingDowngradeTier: MembershipTier.nullable(),
  /** YYYYMM (Asia/Tokyo) of the renewal at which the pending downgrade takes effect (the member's next renewal) */
  downgradeEffectiveMonth: z.number().int().nullable(),
  /**
   * The plan's next renewal: a paid month ends one calendar month after it began (an upgrade at 26 November renews
   * on 26 December at the same time of day; the 31st renews on the last day of a shorter month). A plan stored before
   * renewal dates existed renews on the 1st at 00:00 Asia/Tokyo. With a pending downgrade: when it takes effect.
   * null: no renewal (free, trial, 300point without a pending downgrade).
   */
  renewsAt: IsoDateTime.nullable(),
  /** points charged at renewsAt (the plan after a pending downgrade: 0 when it becomes free); null with renewsAt */
  renewalPoints: z.number().int().nonnegative().nullable(),
});
export type MembershipState = z.infer<typeof MembershipState>;

/** An upgrade the member may confirm now: what it costs at once, and the first renewal it would bring. */
export const UpgradeOffer = z.object({
  membershipTier: UpgradeTier,
  /** points charged at once; the upgrade call carries it back as expectedCost */
  cost: z.number().int().positive(),
  /** one calendar month after now: the first renewal of the upgraded plan */
  renewsAt: IsoDateTime,
  /** points charged at that renewal (the plan's monthly price) */
  renewalPoints: z.number().int().nonnegative(),
});
export type UpgradeOffer = z.infer<typeof UpgradeOffer>;

/** The membership card and the dashboard's tier card: state, next renewal, and what the member should be told. */
export const MembershipStatus = MembershipState.extend({
  /** trial: when it ends (30 days after registration) */
  trialEndsAt: IsoDateTime.nullable(),
  /** the current plan's monthly price (0 for free, trial and 300point) */
  monthlyPrice: z.number().int().nonnegative(),
  /** 'trial-ended': the trial became free; 'renewal-failed': a monthly charge could not be paid, now free */
  notice: z.enum(['trial-ended', 'renewal-failed']).nullable(),
  /** the upgrades allowed now (none while a downgrade is pending), with their current cost */
  upgradeOffers: z.array(UpgradeOffer),
});
export type MembershipStatus = z.infer<typeof MembershipStatus>;

export const UpgradeMembershipRequest = z.object({
  membershipTier: UpgradeTier,
  /** the cost the member confirmed (the offer's cost); another current cost → 409 PRICE_CHANGED, details { price } */
  expectedCost: z.number({ error: 'validation.invalid' }).int('validation.invalid').positive('validation.invalid'),
});
export type UpgradeMembershipRequest = z.infer<typeof UpgradeMembershipRequest>;
export const UpgradeMembershipResponse = z.object({
  pointsConsumed: z.number().int().nonnegative(),
  user: MembershipState,
});
export type UpgradeMembershipResponse = z.infer<typeof UpgradeMembershipResponse>;

export const ScheduleDowngradeRequest = z.object({ targetTier: DowngradeTier });
export type ScheduleDowngradeRequest = z.infer<typeof ScheduleDowngradeRequest>;
export const ScheduleDowngradeResponse = z.object({
  scheduledTier: MembershipTier,
  /** the member's next renewal, when the downgrade takes effect: its Asia/Tokyo date, YYYY-MM-DD */
  effectiveDate: z.iso.date(),
  /** YYYYMM of that renewal (as downgradeEffectiveMonth) */
  effectiveMonth: z.number().int(),
});
export type ScheduleDowngradeResponse = z.infer<typeof ScheduleDowngradeResponse>;

export const membershipRoutes = defineRoutes([
  {
    id: 'getMembership',
    method: 'get',
    path: '/api/membership/status',
    service: 'billing',
    auth: 'session',
    action: 'billing.read',
    summary: "The caller's plan, pending downgrade, trial end, next renewal and notice",
    response: MembershipStatus,
  },
  {
    id: 'upgradeMembership',
    method: 'post',
    path: '/api/membership/upgrade',
    service: 'billing',
    auth: 'session',
    action: 'billing.spend',
    summary:
      'Upgrade at once, paid with points at the cost the member confirmed (expectedCost; another current cost: 409 PRICE_CHANGED with details.price, nothing charged); the paid month starts now',
    body: UpgradeMembershipRequest,
    response: UpgradeMembershipResponse,
  },
  {
    id: 'scheduleDowngrade',
    method: 'post',
    path: '/api/membership/schedule-downgrade',
    service: 'billing',
    auth: 'session',
    action: 'billing.spend',
    summary: "Reserve a downgrade for the member's next renewal",
    body: ScheduleDowngradeRequest,
    response: ScheduleDowngradeResponse,
  },
  {
    id: 'cancelDowngrade',
    method: 'delete',
    path: '/api/membership/cancel-downgrade',
    service: 'billing',
    auth: 'session',
    action: 'billing.spend',
    summary: 'Cancel a reserved downgrade',
    response: OkResponse,
  },
]);
