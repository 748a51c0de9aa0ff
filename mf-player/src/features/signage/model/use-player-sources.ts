import { useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from '@pagecast/router';
import { playlistItemsQuery } from '../../../lib/playlist-items';
import { playerFileQuery } from '../api/get-player-file';
import { playerPagesQuery } from '../api/get-player-pages';
import { parseIndex } from './playback';

/**
 * What the URL asks to play (/signage/:fileId?playlist=&index=&autoplay=) and the reads behind it: the file, its
 * pages and the playlist's items. Live events and refetches update these; the screen takes them at page boundaries.
 */
export function usePlayerSources() {
  const { fileId = '' } = useParams();
  const [search] = useSearchParams();
  const playlistId = search.get('playlist') || null;
  const index = parseIndex(search.get('index'));
  const autoplay = search.get('autoplay') === 'true';
  const fileQ = useQuery(playerFileQuery(fileId));
  const pagesQ = useQuery(playerPagesQuery(fileId));
  const itemsQ = useQuery({ ...playlistItemsQuery(playlistId ?? ''), enabled: playlistId !== null });
  return { fileId, playlistId, index, autoplay, fileQ, pagesQ, itemsQ };
}

export type PlayerSources = ReturnType<typeof usePlayerSources>;
