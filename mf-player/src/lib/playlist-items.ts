import type { PlaylistItem } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';
import { fetchJsonWithEtag } from './conditional-fetch';

// One query for a playlist's items, whoever reads them (the player, the editor, a paired screen): one key, one
// function, one type, so an edit saved by the editor and a live event seen by the player refresh the same entry.

export const playlistItemsPath = (playlistId: string) => `/api/playlists/${encodeURIComponent(playlistId)}/items`;
export const playlistItemsKey = (playlistId: string) => [playlistItemsPath(playlistId)];

/** GET /api/playlists/:id/items: the items in play order (not paged), file null when it can no longer be played. */
export const playlistItemsQuery = (playlistId: string) =>
  queryOptions<PlaylistItem[]>({
    queryKey: playlistItemsKey(playlistId),
    queryFn: ({ signal }) => fetchJsonWithEtag<PlaylistItem[]>(playlistItemsPath(playlistId), signal),
    // offline, the request still goes out: the service worker answers from its cache
    networkMode: 'always',
  });
