import type { ScreenHealth } from '@pagecast/contracts';
import { useTranslation } from '@pagecast/i18n';
import { useState } from 'react';
import type { Titles } from '../../titles';
import { describeShows, formatDuration, healthNote, healthReason } from '../model/health-text';
import { HealthBadge } from './health-badge';
import { IncidentLog } from './incident-log';
import { ShownThumbnail } from './shown-thumbnail';
import '../../../components/layout/layout.css';
import './health.css';

/**
 * One screen's health: its state with the reason in words, a live thumbnail of what it shows (shaped as it hangs),
 * what it shows in words where the reason does not say it, how long it has shown it (ticking with `now`), its last
 * image error, and its incident log (read when opened). `badge={false}` leaves the state's badge to the caller (the
 * Screens card shows it in its header).
 */
export function HealthSummary({
  health,
  now,
  titles,
  incidentsOpen = false,
  badge = true,
}: {
  health: ScreenHealth;
  now: number;
  titles: Titles;
  incidentsOpen?: boolean;
  badge?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(incidentsOpen);
  const time = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(iso));
  const shows = health.shows;
  // how long the picture has shown: not for a black screen, nor for what an offline screen showed last
  const shownSeconds =
    shows && shows.kind !== 'blank' && health.state !== 'offline' ? (now - Date.parse(shows.shownAt)) / 1000 : null;
  // what it shows, in words, where the reason does not name it (it does for wrong content and a broken image)
  const showsText =
    shows && shows.kind !== 'blank' && (health.state === 'ok' || health.state === 'frozen')
      ? describeShows(t, shows, titles)
      : null;
  const lastError = health.lastImageError;
  // the last error was a video's (its kind from the files, or the report naming that file's video): video words
  const lastErrorVideo =
    !!lastError &&
    (titles.isVideo?.(lastError.fileId) ||
      (shows?.kind === 'page' && !!shows.video && shows.fileId === lastError.fileId));
  return (
    <div className="ph-health" data-testid="screen-health" data-state={health.state}>
      <ShownThumbnail shows={health.state === 'offline' ? null : shows} rotation={health.rotation} titles={titles} />
      <div className="ph-health__text">
        <p className="ph-health__state">
          {badge ? (
            <>
              <HealthBadge state={health.state} note={healthNote(health)} />{' '}
            </>
          ) : null}
          <span data-testid="health-reason">{healthReason(t, health, now, titles, time)}</span>
        </p>
        {showsText !== null ? (
          <p className="pl-small" data-testid="health-shows">
            <span className="pc-muted">{t('screens.nowPlaying')}: </span>
            {showsText}
          </p>
        ) : null}
        {shownSeconds !== null ? (
          <p className="pc-muted pl-small" data-testid="health-shown-for">
            {t('screens.health.shownFor', { duration: formatDuration(t, shownSeconds) })}
          </p>
        ) : null}
        <p className="pl-small">
          {/* the colon is the translation's (French puts a narrow no-break space before it) */}
          <span className="pc-muted">{t('screens.health.lastErrorLabel')} </span>
          <span data-testid="health-last-error">
            {lastError && lastErrorVideo
              ? t('screens.health.lastVideoErrorValue', {
                  time: time(lastError.at),
                  title: titles.file(lastError.fileId) ?? t('screens.board.unknownFile'),
                  error: t(`screens.health.videoError.${lastError.error}`),
                })
              : lastError
                ? t('screens.health.lastImageErrorValue', {
                    time: time(lastError.at),
                    page: lastError.page,
                    title: titles.file(lastError.fileId) ?? t('screens.board.unknownFile'),
                    error: t(`screens.health.imageError.${lastError.error}`),
                  })
                : t('screens.health.noImageError')}
          </span>
        </p>
        <details
          className="ph-incidents"
          open={open}
          onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
        >
          <summary>{t('screens.health.incidents')}</summary>
          {open ? <IncidentLog screenId={health.screenId} /> : null}
        </details>
      </div>
    </div>
  );
}
