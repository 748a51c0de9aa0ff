import type { PlaylistList } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

export const playlistsKey = ['/api/playlists'] as const;

/** GET /api/playlists through the default fetcher (the key is the path). */
export const playlistsQuery = queryOptions<PlaylistList>({ queryKey: playlistsKey });
