import type { PublishPrice } from '@pagecast/contracts';
import { useTranslation } from '@pagecast/i18n';
import { allPlanFigures } from '../model/file-rules';

/** The three price plans (3000 人気, 5000 おすすめ, 10000 プレミアム) with the fee and what the seller receives. */
export function PricePlanPicker({
  value,
  onChange,
  name,
}: {
  value: PublishPrice | undefined;
  onChange: (value: PublishPrice) => void;
  name: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <div className="pf-plans" role="radiogroup" aria-label={t('files.plans.title')}>
      {allPlanFigures(i18n.language).map(({ plan, price, fee, net }) => (
        <label
          key={plan.value}
          className={`pf-plan${value === plan.value ? ' pf-plan--selected' : ''}`}
          data-testid={`price-plan-${plan.value}`}
        >
          <input
            type="radio"
            name={name}
            value={plan.value}
            checked={value === plan.value}
            onChange={() => onChange(plan.value)}
          />
          <span className="pf-plan__label">{t(`files.plans.${plan.label}`)}</span>
          <span className="pf-plan__price">{t('files.plans.price', { price })}</span>
          <span className="pf-plan__fee">{t('files.plans.fee', { fee })}</span>
          <span className="pf-plan__net">{t('files.plans.net', { net })}</span>
        </label>
      ))}
    </div>
  );
}
