import { subjects } from '@pagecast/contracts';
import { AppError, type AuditActor } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { auditPlaylistChange } from '../events/audit';

/** The member deletes their playlist (its items with it); the deletion is announced. */
export async function deletePlaylist(
  ctx: ServiceContext,
  userId: string,
  playlistId: string,
  actor: AuditActor,
): Promise<void> {
  const deleted = await ctx.data.playlists.deleteOwned(playlistId, userId);
  if (!deleted) throw new AppError('PLAYLIST_NOT_FOUND');
  await auditPlaylistChange(ctx, actor, 'playlist.deleted', userId, playlistId, deleted, null);
  await ctx.outbox.add(subjects.playlistDeleted, {
    playlistId,
    ownerId: userId,
    deletedAt: ctx.clock.now().toISOString(),
  });
}
