import type { PlaylistList } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

// One query for the member's playlists, whoever lists them (the playlists tab, a screen's picker): one key, one
// function, so a playlist made or deleted in the tab shows in the screens' picker too.

export const playlistsKey = ['/api/playlists'] as const;

/** GET /api/playlists through the default fetcher (the key is the path). */
export const playlistsQuery = queryOptions<PlaylistList>({ queryKey: playlistsKey });
