import type { PlaylistItemList } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

export const playlistItemsKey = (playlistId: string) => [`/api/playlists/${encodeURIComponent(playlistId)}/items`];

/** GET /api/playlists/:id/items: the items in play order (not paged), file null when it can no longer be played. */
export const playlistItemsQuery = (playlistId: string) =>
  queryOptions<PlaylistItemList>({ queryKey: playlistItemsKey(playlistId) });
