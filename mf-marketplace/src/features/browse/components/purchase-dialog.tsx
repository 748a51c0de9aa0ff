import type { MarketplaceListing } from '@pagecast/contracts';
import { BUY_POINTS_PATH, Button, buttonClass, CopyrightDetails, Dialog } from '@pagecast/ui';
import { useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { Link } from '@pagecast/router';
import { usePurchaseFile } from '../api/purchase-file';
import { LICENCE_DAYS } from '../model/marketplace-rules';

/**
 * The confirmation before points are spent: title, price, balance before and after, the 30-day period. The purchase
 * is asked at the price shown; when the seller changed it meanwhile, the dialog shows the new price and the buyer
 * confirms again (or cancels).
 */
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
  // the price shown, which is the price asked; after a refusal for a changed price, the new one and the one before
  const [price, setPrice] = useState(listing.publishPrice);
  const [changedFrom, setChangedFrom] = useState<number | undefined>(undefined);
  const purchase = usePurchaseFile({
    onSuccess: onClose,
    onPriceChanged: (current) => {
      setChangedFrom(price);
      setPrice(current);
    },
  });
  const n = (v: number) => v.toLocaleString(i18n.language);
  const short = balance < price;
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
          {short ? (
            // the price is above the balance: the shell's purchase dialog, one click away
            <Link className={buttonClass('outline')} to={BUY_POINTS_PATH} data-testid="market-confirm-buy-points">
              {t('marketplace.card.buyPoints')}
            </Link>
          ) : null}
          <Button
            onClick={() => purchase.mutate({ id: listing.id, expectedPrice: price })}
            loading={purchase.isPending}
            disabled={short}
            data-testid="market-confirm-buy"
          >
            {t('marketplace.confirm.buy', { price: n(price) })}
          </Button>
        </>
      }
    >
      <div className="pc-stack" data-testid="market-confirm">
        <p>{t('marketplace.confirm.question', { title: listing.title })}</p>
        {changedFrom !== undefined ? (
          <p className="pm-banner" role="alert" data-testid="market-price-changed">
            {t('marketplace.confirm.priceChanged', { count: price, price: n(price), was: n(changedFrom) })}
          </p>
        ) : null}
        <dl className="pm-props">
          <dt>{t('marketplace.confirm.price')}</dt>
          <dd data-testid="market-confirm-price">{t('marketplace.card.price', { price: n(price) })}</dd>
          <dt>{t('marketplace.confirm.balance')}</dt>
          <dd>{t('marketplace.card.price', { price: n(balance) })}</dd>
          <dt>{t('marketplace.confirm.after')}</dt>
          <dd data-testid="market-confirm-after">
            {short ? t('marketplace.card.insufficient') : t('marketplace.card.price', { price: n(balance - price) })}
          </dd>
          <dt>{t('marketplace.card.periodLabel')}</dt>
          <dd>{t('marketplace.card.period', { count: LICENCE_DAYS, days: LICENCE_DAYS })}</dd>
        </dl>
        <CopyrightDetails copyright={listing.copyright} />
        <p className="pc-muted">{t('marketplace.confirm.note', { days: LICENCE_DAYS })}</p>
      </div>
    </Dialog>
  );
}
