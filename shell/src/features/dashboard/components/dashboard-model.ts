import { constants, type FileSummary } from '@pagecast/contracts';

/** Published first, then processing, disabled, otherwise private (spec point 4). */
export function fileStatusLabel(file: Pick<FileSummary, 'isPublished' | 'status'>) {
  if (file.isPublished) return 'published' as const;
  if (file.status === 'processing' || file.status === 'disabled') return file.status;
  return 'private' as const;
}

/** The next renewal: one month from today; none for the free tier. */
export function nextRenewalDate(tier: string, today: Date = new Date()): Date | null {
  if (tier === 'free') return null;
  const next = new Date(today);
  next.setMonth(next.getMonth() + 1);
  // 31 Jan + 1 month overflows into March: keep the month's last day instead
  if (next.getDate() !== today.getDate()) next.setDate(0);
  return next;
}

/** The fixed bar of the tier card (the spec shows 65% whatever the tier). */
export const TIER_PROGRESS_PERCENT = 65;

export function fileLimitOf(tier: string): number {
  return (constants.fileLimits as Record<string, number>)[tier] ?? constants.fallbackFileLimit;
}
