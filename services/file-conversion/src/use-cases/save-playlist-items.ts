import type { PlaylistItem } from '@pagecast/contracts';
import { AppError, type AuditActor } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { firstRepeat, itemsFromFileIds, loopsRefused, type PlaylistRecord } from '../domain/playlists';
import { auditPlaylistChange } from '../events/audit';
import { requirePlayable } from './playable-files';
import { presentItems } from './playlist-items';

/**
 * The editor's save: the chosen files, each once and each playable by the member, in order replace the playlist's
 * items in one update (not delete-all-then-add); the saved playlist is announced. `loops` sets the video items'
 * loops (a file that is not a video, or not saved, answers PLAYLIST_LOOPS_NOT_VIDEO and nothing changes); absent,
 * kept items keep theirs.
 */
export async function savePlaylistItems(
  ctx: ServiceContext,
  userId: string,
  playlistId: string,
  fileIds: string[],
  loops: Record<string, number> | undefined,
  actor: AuditActor,
): Promise<PlaylistItem[]> {
  const repeat = firstRepeat(fileIds);
  if (repeat !== undefined) throw new AppError('PLAYLIST_ITEM_EXISTS', { details: { fileId: repeat } });
  let before: PlaylistRecord | undefined;
  const result = await ctx.data.playlists.change(playlistId, userId, async (p) => {
    before = p;
    const playable = await requirePlayable(ctx, userId, fileIds);
    const refused = loopsRefused(loops, fileIds, (id) => playable.get(id)?.file.kind);
    if (refused !== undefined) throw new AppError('PLAYLIST_LOOPS_NOT_VIDEO', { details: { fileId: refused } });
    return itemsFromFileIds(fileIds, p.items, ctx.clock.now(), loops);
  });
  if (!result) throw new AppError('PLAYLIST_NOT_FOUND');
  if (result.changed && before) {
    await auditPlaylistChange(ctx, actor, 'playlist.items-saved', userId, playlistId, before, result.playlist);
  }
  await ctx.data.playlists.announceSaved(result.playlist, ctx.outbox);
  return presentItems(ctx, result.playlist);
}
