import { AppError, type AuditActor } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { PlaylistRecord } from '../domain/playlists';
import { auditPlaylistChange } from '../events/audit';

/**
 * The member takes a file out of their playlist. Removing a file that is not there changes nothing: no new version,
 * no event.
 */
export async function removePlaylistItem(
  ctx: ServiceContext,
  userId: string,
  playlistId: string,
  fileId: string,
  actor: AuditActor,
): Promise<void> {
  let before: PlaylistRecord | undefined;
  const result = await ctx.data.playlists.change(playlistId, userId, (p) => {
    before = p;
    return p.items.some((i) => i.fileId === fileId) ? p.items.filter((i) => i.fileId !== fileId) : undefined;
  });
  if (!result) throw new AppError('PLAYLIST_NOT_FOUND');
  if (!result.changed) return;
  if (before)
    await auditPlaylistChange(ctx, actor, 'playlist.item-removed', userId, playlistId, before, result.playlist);
  await ctx.data.playlists.announceSaved(result.playlist, ctx.outbox);
}
