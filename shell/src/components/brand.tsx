import { useTranslation } from '@pagecast/i18n';
import { Link } from '@pagecast/router';

export function Brand() {
  const { t } = useTranslation();
  return (
    <Link to="/" className="pc-brand" data-testid="brand">
      <span className="pc-brand__mark" aria-hidden="true">
        P
      </span>
      <span className="pc-brand__name">{t('common.appName')}</span>
    </Link>
  );
}
