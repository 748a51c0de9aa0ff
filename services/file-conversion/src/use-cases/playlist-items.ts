import type { PlaylistItem } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { PlaylistRecord } from '../data';
import { playlistAccess } from '../domain';
import { inPlayOrder } from '../domain/playlists';
import { playableFiles } from './playable-files';
import { toPlaylistItem } from './present';
import { type Caller, decideAfresh, readerOf } from './reader';

/** Items in play order, each with its file when the playlist's owner may still play it (null: deleted or licence over). */
export async function presentItems(ctx: ServiceContext, p: PlaylistRecord): Promise<PlaylistItem[]> {
  const items = inPlayOrder(p.items);
  const ok = await playableFiles(
    ctx,
    p.userId,
    items.map((i) => i.fileId),
  );
  return items.map((i) => toPlaylistItem(p._id, i, ok.get(i.fileId)));
}

/**
 * A playlist's items, for its owner or a paired display whose screen plays it (as the owner; domain/content-access.ts).
 * Anyone else: 404 PLAYLIST_NOT_FOUND, as for one that does not exist (a display whose screen is unknown: NOT_FOUND).
 */
export async function playlistItems(ctx: ServiceContext, caller: Caller, playlistId: string): Promise<PlaylistItem[]> {
  const p = await ctx.data.playlists.findById(playlistId);
  const decision = await decideAfresh(async (fresh) => {
    const { reader, remembered } = await readerOf(ctx, caller, fresh);
    return { decision: playlistAccess(reader, p ? { id: p._id, ownerId: p.userId } : null), remembered };
  });
  if (!decision.allowed) throw new AppError(decision.refusal === 'screen' ? 'NOT_FOUND' : 'PLAYLIST_NOT_FOUND');
  if (!p) throw new AppError('PLAYLIST_NOT_FOUND');
  return presentItems(ctx, p);
}
