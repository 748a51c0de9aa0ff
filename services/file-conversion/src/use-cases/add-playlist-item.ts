import type { AddPlaylistItemRequest, PlaylistItem } from '@pagecast/contracts';
import { AppError, type AuditActor } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { type PlaylistRecord, placementConflict } from '../domain/playlists';
import { auditPlaylistChange } from '../events/audit';
import { type PlayableFile, requirePlayable } from './playable-files';
import { toPlaylistItem } from './present';

/**
 * The member adds a file they may play to their playlist at a free position (under the playlist's lock, from one
 * snapshot), a video with its loops if given (another kind with loops: PLAYLIST_LOOPS_NOT_VIDEO, nothing added); the
 * saved playlist is announced.
 */
export async function addPlaylistItem(
  ctx: ServiceContext,
  userId: string,
  playlistId: string,
  input: AddPlaylistItemRequest,
  actor: AuditActor,
): Promise<PlaylistItem> {
  let before: PlaylistRecord | undefined;
  let added: PlayableFile | undefined;
  const now = ctx.clock.now();
  const item = {
    fileId: input.fileId,
    position: input.position,
    createdAt: now,
    ...(input.loops !== undefined && input.loops > 1 ? { loops: input.loops } : {}),
  };
  const result = await ctx.data.playlists.change(playlistId, userId, async (p) => {
    before = p;
    const conflict = placementConflict(p.items, input.fileId, input.position);
    if (conflict) throw new AppError(conflict);
    added = (await requirePlayable(ctx, userId, [input.fileId])).get(input.fileId);
    // loops are a video's: a page or a photo shows for its seconds
    if (input.loops !== undefined && added?.file.kind !== 'video') {
      throw new AppError('PLAYLIST_LOOPS_NOT_VIDEO', { details: { fileId: input.fileId } });
    }
    return [...p.items, item];
  });
  if (!result || !added) throw new AppError('PLAYLIST_NOT_FOUND');
  if (before) await auditPlaylistChange(ctx, actor, 'playlist.item-added', userId, playlistId, before, result.playlist);
  await ctx.data.playlists.announceSaved(result.playlist, ctx.outbox);
  return toPlaylistItem(playlistId, item, added);
}
