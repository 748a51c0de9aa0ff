// The words of a screen's health: its state's reason, what it shows and what it should, durations, and
// the server's field refusals. Pure: the caller passes t, the titles and the instant.
import type { ExpectedShow, ScreenHealth, ShownReport } from '@pagecast/contracts';
import { HttpError } from '@pagecast/ui';
import type { TFunction } from 'i18next';
import type { Titles } from '../../titles';

/** "45 s", "6 min", "3 h", "2 days" in the reader's language (rounded down to the largest unit). */
export function formatDuration(t: TFunction, seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return t('screens.health.duration.seconds', { count: s });
  if (s < 3600) return t('screens.health.duration.minutes', { count: Math.floor(s / 60) });
  if (s < 86_400) return t('screens.health.duration.hours', { count: Math.floor(s / 3600) });
  return t('screens.health.duration.days', { count: Math.floor(s / 86_400) });
}

/** A video's second as a clock reads it, in any language: 7 → "0:07", 75.4 → "1:15", 3700 → "1:01:40". */
export function videoTime(second: number): string {
  const s = Math.max(0, Math.floor(second));
  const pad = (n: number) => String(n).padStart(2, '0');
  const [h, m] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60)];
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

const fileTitle = (t: TFunction, titles: Titles, fileId: string) =>
  titles.file(fileId) ?? t('screens.board.unknownFile');

/** What a display reports it shows, in words ("“Menu”, page 2", "a black screen"). */
export function describeShows(t: TFunction, shows: ShownReport | null, titles: Titles): string {
  if (!shows) return t('screens.health.shows.none');
  if (shows.kind === 'page' && shows.video)
    return t('screens.health.shows.video', {
      title: fileTitle(t, titles, shows.fileId),
      time: videoTime(shows.video.second),
    });
  if (shows.kind === 'page')
    return t('screens.health.shows.page', { title: fileTitle(t, titles, shows.fileId), page: shows.page });
  if (shows.kind === 'message') return messageText(t, titles, shows.takeoverId);
  return t('screens.health.shows.blank');
}

/** What the screen should show now, in words. */
export function describeExpected(t: TFunction, expected: ExpectedShow, titles: Titles): string {
  if (expected.kind === 'file')
    return t('screens.health.expected.file', { title: fileTitle(t, titles, expected.fileId) });
  if (expected.kind === 'playlist')
    return t('screens.health.expected.playlist', {
      name: titles.playlist(expected.playlistId) ?? t('screens.board.unknownPlaylist'),
    });
  if (expected.kind === 'message') return messageText(t, titles, expected.takeoverId);
  return t('screens.health.expected.none');
}

/** A takeover's message, by its title once the running takeovers are read. */
function messageText(t: TFunction, titles: Titles, takeoverId: string): string {
  const title = titles.takeover(takeoverId);
  return title === null ? t('screens.health.shows.message') : t('screens.health.shows.messageTitled', { title });
}

/**
 * What a screen in the ok state is doing, when "ok" alone would mislead: under a takeover (not its schedule), or
 * with nothing assigned (its display shows only its name). Other states say it themselves.
 */
export type HealthNote = 'takeover' | 'unassigned' | null;
export function healthNote(health: Pick<ScreenHealth, 'state' | 'expected'>): HealthNote {
  if (health.state !== 'ok') return null;
  if (health.expected.kind === 'message') return 'takeover';
  if (health.expected.kind === 'none') return 'unassigned';
  return null;
}

/** Why a screen is in its state, in one sentence (times by `time`, durations counted to `now`). */
export function healthReason(
  t: TFunction,
  health: ScreenHealth,
  now: number,
  titles: Titles,
  time: (iso: string) => string,
): string {
  const since = health.since ? Date.parse(health.since) : null;
  switch (health.state) {
    case 'offline':
      return health.lastSeenAt
        ? t('screens.health.reason.offline', { time: time(health.lastSeenAt) })
        : t('screens.health.reason.offlineNever');
    case 'closed':
      return t('screens.health.reason.closed');
    case 'broken': {
      const shows = health.shows;
      const failed =
        shows?.kind === 'page' && shows.error
          ? { fileId: shows.fileId, page: shows.page, error: shows.error }
          : health.lastImageError;
      if (!failed) return t('screens.health.state.broken');
      // a video's page (the report says it is one): the video did not play
      if (shows?.kind === 'page' && shows.video && shows.error)
        return t('screens.health.reason.brokenVideo', {
          title: fileTitle(t, titles, shows.fileId),
          error: t(`screens.health.videoError.${shows.error}`),
        });
      // the failed file is a video (its kind from the files), though the report names no video now
      if (titles.isVideo?.(failed.fileId))
        return t('screens.health.reason.brokenVideo', {
          title: fileTitle(t, titles, failed.fileId),
          error: t(`screens.health.videoError.${failed.error}`),
        });
      return t('screens.health.reason.broken', {
        page: failed.page,
        title: fileTitle(t, titles, failed.fileId),
        error: t(`screens.health.imageError.${failed.error}`),
      });
    }
    case 'frozen': {
      const shows = health.shows;
      if (shows?.kind !== 'page') return t('screens.health.state.frozen');
      if (shows.video?.frozen)
        return t('screens.health.reason.frozenVideo', {
          title: fileTitle(t, titles, shows.fileId),
          time: videoTime(shows.video.second),
        });
      return t('screens.health.reason.frozen', {
        shown: formatDuration(t, (now - Date.parse(shows.shownAt)) / 1000),
        hold: formatDuration(t, shows.holdSeconds),
      });
    }
    case 'wrong':
      return t('screens.health.reason.wrong', {
        duration: formatDuration(t, since === null ? 0 : (now - since) / 1000),
        shows: describeShows(t, health.shows, titles),
        expected: describeExpected(t, health.expected, titles),
      });
    default: {
      const note = healthNote(health);
      if (note === 'takeover')
        return t('screens.health.reason.takeover', {
          what: describeExpected(t, health.expected, titles),
        });
      if (note === 'unassigned') return t('screens.health.reason.unassigned');
      return t('screens.health.reason.ok');
    }
  }
}

/**
 * A VALIDATION refusal's issues by field path ('rotation', 'openingHours', 'openingHours.2', 'alertAfterMinutes'),
 * translated; a span's own field issue ('openingHours.2.start') is told on its span. Other refusals: none.
 */
export function fieldErrors(error: unknown, t: TFunction): Map<string, string> {
  const out = new Map<string, string>();
  if (!(error instanceof HttpError) || error.code !== 'VALIDATION') return out;
  const issues = Array.isArray(error.data?.issues) ? (error.data.issues as Array<Record<string, unknown>>) : [];
  for (const issue of issues) {
    const path = typeof issue.path === 'string' ? issue.path : '';
    const field = /^openingHours\.\d+/.exec(path)?.[0] ?? path.split('.')[0] ?? '';
    const text =
      typeof issue.key === 'string'
        ? t(issue.key, { defaultValue: typeof issue.message === 'string' ? issue.message : '' })
        : typeof issue.message === 'string'
          ? issue.message
          : '';
    if (text && !out.has(field)) out.set(field, text);
  }
  return out;
}
