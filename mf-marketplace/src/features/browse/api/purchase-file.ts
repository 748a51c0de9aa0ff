import type { PurchaseResponse } from '@pagecast/contracts';
import {
  apiRequest,
  currentUserQueryKey,
  dashboardStatsQueryKey,
  describeError,
  pointsSummaryQueryKey,
  toast,
  useSessionExpired,
} from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '@pagecast/i18n';
import { marketplaceQueryKey } from './search-marketplace';

/** POST /api/marketplace/purchase/:id */
export async function purchaseFile(id: string): Promise<PurchaseResponse> {
  const res = await apiRequest('POST', `/api/marketplace/purchase/${encodeURIComponent(id)}`);
  return (await res.json()) as PurchaseResponse;
}

/** Reads whose answer a purchase changes: balance, listings' marks, playable files, dashboard and history. */
const touchedByPurchase = [
  marketplaceQueryKey,
  currentUserQueryKey,
  ['/api/files/accessible'],
  dashboardStatsQueryKey,
  ['/api/points/history'],
  // the header's balance is billing's summary
  pointsSummaryQueryKey,
] as const;

/** The purchase with the spec's toasts (point 8): 'コンテンツを購入しました', or the failure with the reason. */
export function usePurchaseFile(options: { onSuccess?: (answer: PurchaseResponse) => void } = {}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sessionExpired = useSessionExpired();
  return useMutation({
    mutationFn: purchaseFile,
    onSuccess: (answer) => {
      for (const queryKey of touchedByPurchase) void queryClient.invalidateQueries({ queryKey: [...queryKey] });
      toast({ title: t('marketplace.toasts.purchased') });
      options.onSuccess?.(answer);
    },
    onError: (error) => {
      if (sessionExpired(error)) return;
      const title = t('marketplace.toasts.purchaseFailed');
      const reason = describeError(error, t, '');
      toast({ title, description: reason || undefined, variant: 'destructive' });
      // the refusal may come from a change elsewhere (sold out, balance spent in another tab): show the truth
      void queryClient.invalidateQueries({ queryKey: [...marketplaceQueryKey] });
      void queryClient.invalidateQueries({ queryKey: [...currentUserQueryKey] });
    },
  });
}
