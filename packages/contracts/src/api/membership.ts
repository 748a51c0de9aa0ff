import { z } from 'zod';
import { defineRoutes } from '../route-def';
import { MembershipTier, OkResponse } from '../validation';

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
