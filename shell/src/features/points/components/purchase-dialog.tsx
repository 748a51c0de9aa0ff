import { type BillingConfig, constants, type PointPackageValue } from '@pagecast/contracts';
import { Button, Dialog, describeError, toast, useSessionExpired } from '@pagecast/ui';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { StripeElementLocale } from '@stripe/stripe-js';
import { type FormEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { CardError, PreparationError, useBuyPoints } from '../api/buy-points';
import { cardErrorText, serverCardFailure, stripeLocaleOf } from '../model/card-error-text';
import { loadStripeFrom } from '../model/stripe-loader';

const packages = constants.pointPackages;

/**
 * Point purchase dialog (spec points 2 and 4): pick a package (3000 by default), proceed, pay with the card
 * provider's card element, or go back; closing resets it; a success refreshes balances and closes it.
 */
export function PurchaseDialog({
  open,
  onOpenChange,
  config,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  config: BillingConfig | undefined;
}) {
  const { t, i18n } = useTranslation();
  const [step, setStep] = useState<'select' | 'card'>('select');
  const [amount, setAmount] = useState<PointPackageValue>(constants.defaultPointPackage);

  // stable: the kit's Dialog re-focuses its first control whenever this changes
  const change = useCallback(
    (next: boolean) => {
      if (!next) {
        setStep('select');
        setAmount(constants.defaultPointPackage);
      }
      onOpenChange(next);
    },
    [onOpenChange],
  );

  // keyboard users start on the chosen package (the kit's Dialog focuses the first control, a frame earlier),
  // and come back to it from the card step
  const chosen = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!open || step !== 'select') return;
    const frame = requestAnimationFrame(() => chosen.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [open, step]);

  const number = (n: number) => n.toLocaleString(i18n.language);
  return (
    <Dialog open={open} onOpenChange={change} title={t('points.purchase.title')} size="md">
      <div data-testid="purchase-dialog">
        {step === 'select' ? (
          <>
            <fieldset className="pp-packages">
              <legend>{t('points.purchase.choose')}</legend>
              {packages.map((value) => (
                <label key={value} className="pp-package" data-testid={`purchase-package-${value}`}>
                  <input
                    type="radio"
                    name="point-package"
                    value={value}
                    checked={amount === value}
                    ref={amount === value ? chosen : undefined}
                    onChange={() => setAmount(value)}
                  />
                  <strong>{t('common.points', { count: value, points: number(value) })}</strong>
                  <span className="pc-muted">{t('points.purchase.price', { yen: number(value) })}</span>
                </label>
              ))}
            </fieldset>
            <ul className="pp-info pc-muted">
              <li>{t('points.purchase.infoUse')}</li>
              <li>{t('points.purchase.infoExpiry')}</li>
              <li>{t('points.purchase.infoSecure')}</li>
            </ul>
            <div className="pc-row" style={{ justifyContent: 'flex-end' }}>
              <Button variant="ghost" onClick={() => change(false)}>
                {t('common.cancel')}
              </Button>
              <Button onClick={() => setStep('card')} data-testid="purchase-proceed">
                {t('points.purchase.proceed')}
              </Button>
            </div>
          </>
        ) : config?.cardPaymentsEnabled && config.publishableKey ? (
          <CardStep
            amount={amount}
            scriptUrl={config.stripeJsUrl}
            publishableKey={config.publishableKey}
            onBack={() => setStep('select')}
            onPaid={() => change(false)}
          />
        ) : (
          <>
            <div className="pp-banner pp-banner--danger" role="alert" data-testid="purchase-config-error">
              <strong>{t('points.purchase.configErrorTitle')}</strong>
              <p>{t('points.purchase.configErrorDescription')}</p>
            </div>
            <div className="pc-row">
              <Button variant="outline" onClick={() => setStep('select')} data-testid="purchase-back">
                {t('common.back')}
              </Button>
            </div>
          </>
        )}
      </div>
    </Dialog>
  );
}

function CardStep({
  amount,
  scriptUrl,
  publishableKey,
  onBack,
  onPaid,
}: {
  amount: PointPackageValue;
  scriptUrl: string;
  publishableKey: string;
  onBack: () => void;
  onPaid: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [loadFailed, setLoadFailed] = useState(false);
  const locale = stripeLocaleOf(i18n.language);
  // the Elements are made once, in the language of the moment (FollowLocale follows later changes)
  const [elementsOptions] = useState(() => ({ locale }));
  // a script that does not load (network, CSP) is the spec's preparation failure, not an endless disabled button
  const stripePromise = useMemo(
    () =>
      loadStripeFrom(scriptUrl, publishableKey).catch(() => {
        setLoadFailed(true);
        return null;
      }),
    [scriptUrl, publishableKey],
  );
  if (loadFailed) {
    return (
      <>
        <div className="pp-banner pp-banner--danger" role="alert" data-testid="purchase-load-error">
          <strong>{t('points.purchase.errorTitle')}</strong>
          <p>{t('points.purchase.prepareFailed')}</p>
        </div>
        <Button variant="outline" onClick={onBack} data-testid="purchase-back">
          {t('common.back')}
        </Button>
      </>
    );
  }
  return (
    <Elements stripe={stripePromise} options={elementsOptions}>
      <FollowLocale from={elementsOptions.locale} locale={locale} />
      <CardForm amount={amount} onBack={onBack} onPaid={onPaid} />
    </Elements>
  );
}

/**
 * Keeps the provider's element in the reader's language after a language change (its placeholders and its own
 * messages). localstripe's stand-in has no update (and no texts): it is left as it is.
 */
function FollowLocale({ from, locale }: { from: StripeElementLocale; locale: StripeElementLocale }) {
  const elements = useElements();
  const shown = useRef(from);
  useEffect(() => {
    if (!elements || shown.current === locale || typeof elements.update !== 'function') return;
    shown.current = locale;
    elements.update({ locale });
  }, [elements, locale]);
  return null;
}

const cardOptions = { hidePostalCode: true, style: { base: { fontSize: '16px' } } } as const;

function CardForm({ amount, onBack, onPaid }: { amount: PointPackageValue; onBack: () => void; onPaid: () => void }) {
  const { t, i18n } = useTranslation();
  const stripe = useStripe();
  const elements = useElements();
  const sessionExpired = useSessionExpired();
  const buy = useBuyPoints();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) return;
    buy.mutate(
      { amount, stripe, card },
      {
        onSuccess: (result) => {
          toast({
            title: t('points.purchase.succeeded'),
            description: t('points.purchase.succeededDescription', {
              points: result.added.toLocaleString(i18n.language),
              balance: result.balance.toLocaleString(i18n.language),
            }),
          });
          onPaid();
        },
        onError: (error) => {
          if (sessionExpired(error)) return;
          if (error instanceof PreparationError) {
            toast({
              title: t('points.purchase.errorTitle'),
              description: t('points.purchase.prepareFailed'),
              variant: 'destructive',
            });
            return;
          }
          // a refused card is worded by the provider's codes; anything else (or a code we do not know) as before
          const generic = describeError(error, t, t('points.purchase.paymentFailedFallback'));
          const failure = error instanceof CardError ? error.failure : serverCardFailure(error);
          const message = failure ? cardErrorText(failure, t, generic) : generic;
          toast({ title: t('points.purchase.paymentFailed'), description: message, variant: 'destructive' });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <p style={{ margin: '0 0 8px' }}>
        {t('points.purchase.summary', {
          points: amount.toLocaleString(i18n.language),
          yen: amount.toLocaleString(i18n.language),
        })}
      </p>
      {/* the provider's element: an iframe of the real Stripe.js, plain inputs of localstripe's */}
      <fieldset className="pp-card-field" data-testid="purchase-card">
        <legend style={{ fontWeight: 600 }}>{t('points.purchase.cardLabel')}</legend>
        <CardElement options={cardOptions} />
      </fieldset>
      <div className="pc-row" style={{ justifyContent: 'space-between' }}>
        <Button variant="outline" onClick={onBack} disabled={buy.isPending} data-testid="purchase-back">
          {t('common.back')}
        </Button>
        <Button type="submit" loading={buy.isPending} disabled={!stripe || !elements} data-testid="purchase-pay">
          {buy.isPending
            ? t('points.purchase.paying')
            : t('points.purchase.pay', { yen: amount.toLocaleString(i18n.language) })}
        </Button>
      </div>
    </form>
  );
}
