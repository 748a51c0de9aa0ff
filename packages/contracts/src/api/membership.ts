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
  /** YYYYMM */
  downgradeEffectiveMonth: z.number().int().nullable(),
});
export type MembershipState = z.infer<typeof MembershipState>;

/** The membership card and the dashboard's tier card: state, next renewal, and what the member should be told. */
export const MembershipStatus = MembershipState.extend({
  /** trial: when it ends (30 days after registration) */
  trialEndsAt: IsoDateTime.nullable(),
  /** standard/creator: the next monthly charge (the 1st of next month, 00:00 Asia/Tokyo); null otherwise */
  nextRenewalAt: IsoDateTime.nullable(),
  monthlyPrice: z.number().int().nonnegative(),
  /** 'trial-ended': the trial became free; 'renewal-failed': a monthly charge could not be paid, now free */
  notice: z.enum(['trial-ended', 'renewal-failed']).nullable(),
});
export type MembershipStatus = z.infer<typeof MembershipStatus>;

export const UpgradeMembershipRequest = z.object({ membershipTier: UpgradeTier });
export type UpgradeMembershipRequest = z.infer<typeof UpgradeMembershipRequest>;
export const UpgradeMembershipResponse = z.object({
  message: z.string(),
  pointsConsumed: z.number().int().nonnegative(),
  user: MembershipState,
});
export type UpgradeMembershipResponse = z.infer<typeof UpgradeMembershipResponse>;

export const ScheduleDowngradeRequest = z.object({ targetTier: DowngradeTier });
export type ScheduleDowngradeRequest = z.infer<typeof ScheduleDowngradeRequest>;
export const ScheduleDowngradeResponse = z.object({
  message: z.string(),
  scheduledTier: MembershipTier,
  /** first day of next month, YYYY-MM-DD */
  effectiveDate: z.iso.date(),
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
    summary: "The caller's plan, pending downgrade, trial end, next renewal and notice",
    response: MembershipStatus,
  },
  {
    id: 'upgradeMembership',
    method: 'post',
    path: '/api/membership/upgrade',
    service: 'billing',
    auth: 'session',
    summary: 'Upgrade at once, paid with points (standard 3000, creator 5000)',
    body: UpgradeMembershipRequest,
    response: UpgradeMembershipResponse,
  },
  {
    id: 'scheduleDowngrade',
    method: 'post',
    path: '/api/membership/schedule-downgrade',
    service: 'billing',
    auth: 'session',
    summary: 'Reserve a downgrade for next month',
    body: ScheduleDowngradeRequest,
    response: ScheduleDowngradeResponse,
  },
  {
    id: 'cancelDowngrade',
    method: 'delete',
    path: '/api/membership/cancel-downgrade',
    service: 'billing',
    auth: 'session',
    summary: 'Cancel a reserved downgrade',
    response: OkResponse,
  },
]);
