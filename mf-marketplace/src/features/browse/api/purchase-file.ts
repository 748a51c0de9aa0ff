import type { PurchaseRequest, PurchaseResponse } from '@pagecast/contracts';
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
import { changedPrice } from '../model/marketplace-rules';
import { marketplaceQueryKey } from './search-marketplace';

/** POST /api/marketplace/purchase/:id at the price the buyer confirmed (another price now: 409 PRICE_CHANGED). */
export async function purchaseFile({ id, expectedPrice }: { id: string } & PurchaseRequest): Promise<PurchaseResponse> {
  const body: PurchaseRequest = { expectedPrice };
  const res = await apiRequest('POST', `/api/marketplace/purchase/${encodeURIComponent(id)}`, body);
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

/**
 * The purchase with the spec's toasts (point 8): 'コンテンツを購入しました', or the failure with the reason. A price
 * changed since the buyer saw it is no failure to toast: onPriceChanged gets the current price to confirm again.
 */
export function usePurchaseFile(
  options: { onSuccess?: (answer: PurchaseResponse) => void; onPriceChanged?: (price: number) => void } = {},
) {
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
      const price = changedPrice(error);
      if (price !== undefined && options.onPriceChanged) {
        // the cards show the new price too
        void queryClient.invalidateQueries({ queryKey: [...marketplaceQueryKey] });
        options.onPriceChanged(price);
        return;
      }
      const title = t('marketplace.toasts.purchaseFailed');
      const reason = describeError(error, t, '');
      toast({ title, description: reason || undefined, variant: 'destructive' });
      // the refusal may come from a change elsewhere (sold out, balance spent in another tab): show the truth
      void queryClient.invalidateQueries({ queryKey: [...marketplaceQueryKey] });
      void queryClient.invalidateQueries({ queryKey: [...currentUserQueryKey] });
    },
  });
}
