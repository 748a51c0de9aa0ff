import { apiRequest, HttpError } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { playlistItemsKey, playlistItemsPath } from '../../../lib/playlist-items';
import { playlistsKey } from '../../../lib/playlists';

/** The call is not there (an older file service): method not allowed, or a 404 for the route, not the playlist. */
export function atomicSaveMissing(error: unknown): boolean {
  if (!(error instanceof HttpError)) return false;
  return error.status === 405 || (error.status === 404 && (error.code === undefined || error.code === 'NOT_FOUND'));
}

/**
 * Saves the editor's choice: PUT /api/playlists/:id/items { fileIds, loops } replaces the items in one atomic update.
 * Without that call, the spec's way (point 4): delete every old item, then add the chosen ones in order.
 */
export async function savePlaylistItems(input: {
  playlistId: string;
  fileIds: string[];
  previousFileIds: string[];
  /** each video's loops (a file not named plays once) */
  loops?: Record<string, number>;
}): Promise<void> {
  try {
    await apiRequest('PUT', playlistItemsPath(input.playlistId), {
      fileIds: input.fileIds,
      ...(input.loops ? { loops: input.loops } : {}),
    });
    return;
  } catch (error) {
    if (!atomicSaveMissing(error)) throw error;
  }
  for (const fileId of input.previousFileIds) {
    await apiRequest('DELETE', `${playlistItemsPath(input.playlistId)}/${encodeURIComponent(fileId)}`);
  }
  for (const [position, fileId] of input.fileIds.entries()) {
    const loops = input.loops?.[fileId];
    await apiRequest('POST', playlistItemsPath(input.playlistId), {
      fileId,
      position,
      ...(loops !== undefined ? { loops } : {}),
    });
  }
}

export function useSavePlaylistItems() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: savePlaylistItems,
    onSuccess: (_data, input) => {
      void qc.invalidateQueries({ queryKey: playlistsKey });
      return qc.invalidateQueries({ queryKey: playlistItemsKey(input.playlistId) });
    },
  });
}
