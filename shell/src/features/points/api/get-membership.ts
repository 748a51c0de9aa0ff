import type { MembershipStatus } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

/** GET /api/membership/status: plan, pending downgrade, trial end, next renewal and notice. */
export const membershipQuery = queryOptions<MembershipStatus>({ queryKey: ['/api/membership/status'] });
