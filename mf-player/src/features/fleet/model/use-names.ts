import type { TakeoverContent } from '@pagecast/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@pagecast/i18n';
import { accessibleFilesQuery } from '../../../lib/accessible-files';
import { playlistsQuery } from '../../../lib/playlists';

/** Names for ids (a playlist's name, a file's title; a gone one says so): the pages never show an id. */
export function useNames() {
  const { t } = useTranslation();
  const files = useQuery(accessibleFilesQuery);
  const playlists = useQuery(playlistsQuery);
  const file = (id: string) => files.data?.find((f) => f.id === id)?.title ?? t('fleet.unknownFile');
  const playlist = (id: string) => playlists.data?.find((p) => p.id === id)?.name ?? t('fleet.unknownPlaylist');
  const content = (c: TakeoverContent) => (c.kind === 'message' ? c.title : file(c.fileId));
  return { file, playlist, content, files: files.data ?? [] };
}
