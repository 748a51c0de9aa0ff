import { subjects } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';

/** The member deletes their playlist (its items with it); the deletion is announced. */
export async function deletePlaylist(ctx: ServiceContext, userId: string, playlistId: string): Promise<void> {
  if (!(await ctx.data.playlists.deleteOwned(playlistId, userId))) throw new AppError('PLAYLIST_NOT_FOUND');
  await ctx.outbox.add(subjects.playlistDeleted, {
    playlistId,
    ownerId: userId,
    deletedAt: ctx.clock.now().toISOString(),
  });
}
