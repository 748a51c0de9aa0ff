import { constants, type FileSummary, type MembershipStatus } from '@pagecast/contracts';

/** Published first, then processing, disabled, otherwise private (spec point 4). */
export function fileStatusLabel(file: Pick<FileSummary, 'isPublished' | 'status'>) {
  if (file.isPublished) return 'published' as const;
  if (file.status === 'processing' || file.status === 'disabled') return file.status;
  return 'private' as const;
}

/**
 * The tier card's renewal line from billing's membership status: a paid plan renews one calendar month after its
 * last payment (renewsAt, billing's stored date), a trial ends 30 days after registration and becomes free, the free
 * plan never renews.
 */
export function renewalOf(
  status: Pick<MembershipStatus, 'membershipTier' | 'renewsAt' | 'trialEndsAt'>,
): { kind: 'renewal' | 'trial-ends'; date: Date } | { kind: 'none' } {
  if (status.membershipTier === 'trial' && status.trialEndsAt)
    return { kind: 'trial-ends', date: new Date(status.trialEndsAt) };
  if (status.renewsAt) return { kind: 'renewal', date: new Date(status.renewsAt) };
  return { kind: 'none' };
}

/** The fixed bar of the tier card (the spec shows 65% whatever the tier). */
export const TIER_PROGRESS_PERCENT = 65;

export function fileLimitOf(tier: string): number {
  return (constants.fileLimits as Record<string, number>)[tier] ?? constants.fallbackFileLimit;
}
