import type { PlaylistItem } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';
import { fetchJsonWithEtag } from '../../../lib/conditional-fetch';

export const playlistItemsPath = (playlistId: string) => `/api/playlists/${encodeURIComponent(playlistId)}/items`;

/** GET /api/playlists/:id/items for the playlist being played (items in play order, file null when gone). */
export const playingPlaylistQuery = (playlistId: string) =>
  queryOptions<PlaylistItem[]>({
    queryKey: [playlistItemsPath(playlistId)],
    queryFn: ({ signal }) => fetchJsonWithEtag<PlaylistItem[]>(playlistItemsPath(playlistId), signal),
    // offline, the request still goes out: the service worker answers from its cache
    networkMode: 'always',
  });
