import type { MembershipStatus } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

/** GET /api/membership/status (billing): next renewal, trial end and the notice the tier card shows. */
export const membershipQuery = queryOptions<MembershipStatus>({ queryKey: ['/api/membership/status'] });
