import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';

/**
 * The member takes a file out of their playlist. Removing a file that is not there changes nothing: no new version,
 * no event.
 */
export async function removePlaylistItem(
  ctx: ServiceContext,
  userId: string,
  playlistId: string,
  fileId: string,
): Promise<void> {
  const result = await ctx.data.playlists.change(playlistId, userId, (p) =>
    p.items.some((i) => i.fileId === fileId) ? p.items.filter((i) => i.fileId !== fileId) : undefined,
  );
  if (!result) throw new AppError('PLAYLIST_NOT_FOUND');
  if (result.changed) await ctx.data.playlists.announceSaved(result.playlist, ctx.outbox);
}
