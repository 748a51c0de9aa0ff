import { SCREEN_OFFLINE_AFTER_SECONDS } from '@pagecast/contracts';
import { describeError, Spinner } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { useSearchParams } from '@pagecast/router';
import { allHealthQuery } from '../../../lib/health/api/health-api';
import { screensQuery } from '../api/list-screens';
import { useTitles } from '../model/titles';
import { useScreensLive } from '../model/use-screens-live';
import { ScreenCard } from './screen-card';

import { useNow } from '../../../lib/use-now';

export function ScreenList() {
  const { t } = useTranslation();
  const screens = useQuery(screensQuery());
  const titles = useTitles();
  const health = useQuery(allHealthQuery());
  const [params] = useSearchParams();
  const highlighted = params.get('screen');
  const loaded = Boolean(screens.data);
  // a link to one screen (/screens?screen=<id>) brings its card into view, once the list is there
  useEffect(() => {
    if (!highlighted || !loaded) return;
    document.querySelector(`[data-testid="screen-${CSS.escape(highlighted)}"]`)?.scrollIntoView?.({ block: 'center' });
  }, [highlighted, loaded]);
  const now = useNow();
  useScreensLive();
  const count = screens.data?.length ?? 0;
  const online = (screens.data ?? []).filter(
    (s) => s.online && s.lastSeenAt && now - Date.parse(s.lastSeenAt) <= SCREEN_OFFLINE_AFTER_SECONDS * 1000 + 5000,
  ).length;
  return (
    <section className="pc-stack" aria-labelledby="screens-list-title">
      <div className="ps-section-head">
        <h2 id="screens-list-title">{t('screens.listLabel')}</h2>
        {count ? (
          <p className="pc-muted" data-testid="screens-online-count">
            {t('screens.board.onlineCount', { count, online })}
          </p>
        ) : null}
      </div>
      {screens.isLoading ? <Spinner /> : null}
      {screens.error ? <p role="alert">{describeError(screens.error, t, t('screens.loadFailed'))}</p> : null}
      {screens.data && !count ? <p className="pl-empty">{t('screens.none')}</p> : null}
      {count ? (
        <ul className="ps-screens" aria-labelledby="screens-list-title">
          {screens.data?.map((s) => (
            <li key={s.id}>
              <ScreenCard
                screen={s}
                now={now}
                titles={titles}
                health={health.data?.get(s.id)}
                highlighted={highlighted === s.id}
              />
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
