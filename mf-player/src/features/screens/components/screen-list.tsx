import { describeError, Spinner } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@pagecast/i18n';
import { screensQuery } from '../api/list-screens';
import { ScreenCard } from './screen-card';

export function ScreenList() {
  const { t } = useTranslation();
  const screens = useQuery(screensQuery());
  if (screens.isLoading) return <Spinner />;
  if (screens.error) return <p role="alert">{describeError(screens.error, t, t('screens.loadFailed'))}</p>;
  if (!screens.data?.length) return <p>{t('screens.none')}</p>;
  return (
    <ul className="pc-stack" aria-label={t('screens.listLabel')}>
      {screens.data.map((s) => (
        <li key={s.id}>
          <ScreenCard screen={s} />
        </li>
      ))}
    </ul>
  );
}
