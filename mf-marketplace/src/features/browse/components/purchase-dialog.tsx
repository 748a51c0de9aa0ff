import type { MarketplaceListing } from '@pagecast/contracts';
import { Button, Dialog } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';
import { usePurchaseFile } from '../api/purchase-file';
import { LICENCE_DAYS } from '../model/marketplace-rules';

/** The confirmation before points are spent: title, price, balance before and after, the 30-day period. */
export function PurchaseDialog({
  listing,
  balance,
  onClose,
}: {
  listing: MarketplaceListing;
  balance: number;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const purchase = usePurchaseFile({ onSuccess: onClose });
  const n = (v: number) => v.toLocaleString(i18n.language);
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !purchase.isPending) onClose();
      }}
      title={t('marketplace.confirm.title')}
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={purchase.isPending}>
            {t('common.cancel')}
          </Button>
          <Button
            onClick={() => purchase.mutate(listing.id)}
            loading={purchase.isPending}
            data-testid="market-confirm-buy"
          >
            {t('marketplace.confirm.buy', { price: n(listing.publishPrice) })}
          </Button>
        </>
      }
    >
      <div className="pc-stack" data-testid="market-confirm">
        <p>{t('marketplace.confirm.question', { title: listing.title })}</p>
        <dl className="pm-props">
          <dt>{t('marketplace.confirm.price')}</dt>
          <dd>{t('marketplace.card.price', { price: n(listing.publishPrice) })}</dd>
          <dt>{t('marketplace.confirm.balance')}</dt>
          <dd>{t('marketplace.card.price', { price: n(balance) })}</dd>
          <dt>{t('marketplace.confirm.after')}</dt>
          <dd data-testid="market-confirm-after">
            {t('marketplace.card.price', { price: n(balance - listing.publishPrice) })}
          </dd>
          <dt>{t('marketplace.card.periodLabel')}</dt>
          <dd>{t('marketplace.card.period', { days: LICENCE_DAYS })}</dd>
        </dl>
        <p className="pc-muted">{t('marketplace.confirm.note', { days: LICENCE_DAYS })}</p>
      </div>
    </Dialog>
  );
}
