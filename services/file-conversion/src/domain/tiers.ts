import { constants, type MembershipTier } from '@pagecast/contracts';

/** Files a member of this tier may hold (spec points 6 and 9); unknown tiers get the fallback. */
export function fileLimitFor(tier: string | undefined | null): number {
  const limits: Record<string, number> = constants.fileLimits;
  return (tier && limits[tier]) || constants.fallbackFileLimit;
}

/** The tier a member has before account or billing told us anything (spec point 9: default trial). */
export const DEFAULT_TIER: MembershipTier = constants.defaultMembershipTier;
