import type { PointsSummary } from '@pagecast/contracts';
import { type QueryClient, queryOptions } from '@tanstack/react-query';

/** Billing's summary (GET /api/points/summary): the balance the header, the dashboard and /points show. */
export const pointsSummaryQueryKey = ['/api/points/summary'] as const;

/** The one read of the summary (balance and the monthly sums, since the 1st, Asia/Tokyo) for every front end. */
export const pointsSummaryQuery = queryOptions<PointsSummary>({ queryKey: pointsSummaryQueryKey });

/**
 * Some credits reach billing by event a moment after the call that causes them (the migration bonus): reads the
 * summary again until it shows `expected`, for up to `timeoutMs`, so the header does not keep the old figure.
 * Resolves with the last balance read (undefined when the summary never loaded).
 */
export async function followBalance(
  queryClient: QueryClient,
  expected: number,
  { timeoutMs = 15_000, intervalMs = 400 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  let balance: number | undefined;
  for (;;) {
    await queryClient.refetchQueries({ queryKey: pointsSummaryQueryKey });
    balance = queryClient.getQueryData<{ balance: number }>(pointsSummaryQueryKey)?.balance;
    if (balance === undefined || balance >= expected || Date.now() >= deadline) return balance;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
