import type { ScreenGroup, TakeoverAlert, TakeoverContent, TakeoverTarget } from '@pagecast/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@pagecast/i18n';
import { accessibleFilesQuery } from './accessible-files';
import { playlistsQuery } from './playlists';
import { fleetScreensQuery } from './fleet-screens';

/** How many screen names a line lists before it says "and N more". */
export const NAMES_LISTED = 3;

/** Names listed in a line: the first few, then how many more (the rest of the line is the caller's words). */
export function listedNames(names: readonly string[]): { shown: string[]; more: number } {
  return { shown: names.slice(0, NAMES_LISTED), more: Math.max(0, names.length - NAMES_LISTED) };
}

/** Names for ids (a playlist's name, a file's title, screens, groups; a gone one says so): the pages never show an id. */
export function useNames() {
  const { t, i18n } = useTranslation();
  const files = useQuery(accessibleFilesQuery);
  const playlists = useQuery(playlistsQuery);
  const screenList = useQuery(fleetScreensQuery);
  const file = (id: string) => files.data?.find((f) => f.id === id)?.title ?? t('fleet.unknownFile');
  const playlist = (id: string) => playlists.data?.find((p) => p.id === id)?.name ?? t('fleet.unknownPlaylist');
  /** a disaster alert: its kind and the place it concerns (ja names read in Japanese, romaji otherwise) */
  const alert = (c: TakeoverAlert) =>
    t('alerts.log.content', {
      kind: t(`alerts.kind.${c.alertKind}`),
      area: i18n.language.startsWith('ja') ? c.area.name : c.area.romaji,
    });
  const content = (c: TakeoverContent) =>
    c.kind === 'message' ? c.title : c.kind === 'alert' ? alert(c) : file(c.fileId);
  const list = (names: string[]) => new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(names);
  /** "Lobby, Entrance and 2 more" (a screen unpaired since: "a removed screen") */
  const screens = (ids: readonly string[]) => {
    const named = ids.map((id) => screenList.data?.find((s) => s.id === id)?.name ?? t('fleet.unknownScreen'));
    const { shown, more } = listedNames(named);
    return more ? list([...shown, t('fleet.moreScreens', { count: more })]) : list(shown);
  };
  /** where a takeover goes, in words: all screens, or its groups by name */
  const target = (to: TakeoverTarget, groups: readonly ScreenGroup[]) =>
    to.kind === 'all'
      ? t('fleet.takeover.allScreens')
      : to.kind === 'screens'
        ? screens(to.screenIds)
        : list(to.groupIds.map((id) => groups.find((g) => g.id === id)?.name ?? t('fleet.unknownGroup')));
  /** false while the files or playlists are still being read (a name would read as "removed" meanwhile) */
  const ready = !files.isLoading && !playlists.isLoading && !screenList.isLoading;
  return { file, playlist, content, alert, screens, target, files: files.data ?? [], ready };
}
