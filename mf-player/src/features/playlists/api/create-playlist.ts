import type { CreatePlaylistRequest, Playlist } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { playlistsKey } from '../../../lib/playlists';

/** POST /api/playlists { name, description }: answers the playlist (its id opens the editor). */
export async function createPlaylist(body: CreatePlaylistRequest): Promise<Playlist> {
  return (await (await apiRequest('POST', '/api/playlists', body)).json()) as Playlist;
}

export function useCreatePlaylist() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createPlaylist,
    onSuccess: () => qc.invalidateQueries({ queryKey: playlistsKey }),
  });
}
