import type { PlaylistList } from '@pagecast/contracts';
import { throwIfResNotOk } from '@pagecast/ui';
import { queryOptions } from '@tanstack/react-query';

/** GET /api/playlists: what a screen can be given to play. */
export const ownPlaylistsQuery = () =>
  queryOptions<PlaylistList>({
    queryKey: ['/api/playlists'],
    queryFn: async ({ signal }) => {
      const res = await fetch('/api/playlists', { credentials: 'include', signal });
      await throwIfResNotOk(res);
      return (await res.json()) as PlaylistList;
    },
  });
