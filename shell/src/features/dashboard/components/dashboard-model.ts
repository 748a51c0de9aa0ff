import { constants, type FileSummary, type MembershipStatus } from '@pagecast/contracts';

/** Published first, then processing, disabled, otherwise private (spec point 4). */
export function fileStatusLabel(file: Pick<FileSummary, 'isPublished' | 'status'>) {
  if (file.isPublished) return 'published' as const;
  if (file.status === 'processing' || file.status === 'disabled') return file.status;
  return 'private' as const;
}

/**
 * The tier card's renewal line from billing's membership status: paid plans renew on the 1st (nextRenewalAt), a
 * trial ends 30 days after registration and becomes free, the free plan never renews.
 */
export function renewalOf(
  status: Pick<MembershipStatus, 'membershipTier' | 'nextRenewalAt' | 'trialEndsAt'>,
): { kind: 'renewal' | 'trial-ends'; date: Date } | { kind: 'none' } {
  if (status.membershipTier === 'trial' && status.trialEndsAt)
    return { kind: 'trial-ends', date: new Date(status.trialEndsAt) };
  if (status.nextRenewalAt) return { kind: 'renewal', date: new Date(status.nextRenewalAt) };
  return { kind: 'none' };
}

/** The fixed bar of the tier card (the spec shows 65% whatever the tier). */
export const TIER_PROGRESS_PERCENT = 65;

export function fileLimitOf(tier: string): number {
  return (constants.fileLimits as Record<string, number>)[tier] ?? constants.fallbackFileLimit;
}
