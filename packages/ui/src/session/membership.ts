import type { MembershipStatus } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

/** Billing's GET /api/membership/status: plan, pending downgrade, trial end, next renewal and notice. */
export const membershipQueryKey = ['/api/membership/status'] as const;

/** The one read of the membership status, for the dashboard and /points alike. */
export const membershipQuery = queryOptions<MembershipStatus>({ queryKey: membershipQueryKey });
