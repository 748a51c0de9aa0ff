import { apiRequest } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { playlistsKey } from '../../../lib/playlists';

/** DELETE /api/playlists/:id (its items go with it). */
export async function deletePlaylist(playlistId: string): Promise<void> {
  await apiRequest('DELETE', `/api/playlists/${encodeURIComponent(playlistId)}`);
}

export function useDeletePlaylist() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deletePlaylist,
    onSuccess: () => qc.invalidateQueries({ queryKey: playlistsKey }),
  });
}
