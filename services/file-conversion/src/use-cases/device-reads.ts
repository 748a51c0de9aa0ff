// A paired display's reads at boot and after every change: its playlist's items and its files' pages,
// answered from what every instance holds in memory (data/screen-views.ts), read by `_id` and batched on a miss.
// The answers and refusals are those of playlistItems (playlist-items.ts) and readableFile + filePages
// (readable-file.ts, file-pages.ts), which members' calls keep using: the same rules (domain/content-access.ts) asked
// with the same records, only taken from memory. Licences (a bought file on a screen) are still read per request.
import type { FilePage, PlaylistItem } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { FileDoc } from '../data';
import { playlistAccess } from '../domain';
import { inPlayOrder } from '../domain/playlists';
import { type PlayableFile, playableAmong } from './playable-files';
import { toFilePage, toPlaylistItem } from './present';
import { decideReadable } from './readable-file';
import { type Caller, decideAfresh, readerOf } from './reader';

type Device = Extract<Caller, { kind: 'device' }>;

/** As playableFiles (playable-files.ts), with the files from memory: those of `ids` the owner may play now. */
async function playableFromMemory(
  ctx: ServiceContext,
  userId: string,
  ids: readonly string[],
): Promise<Map<string, PlayableFile>> {
  const found = await Promise.all([...new Set(ids)].map((id) => ctx.data.screenViews.file(id)));
  return playableAmong(
    ctx,
    userId,
    found.filter((f): f is FileDoc => f !== null),
  );
}

/** GET /api/playlists/:id/items for a display: as playlistItems. */
export async function devicePlaylistItems(
  ctx: ServiceContext,
  caller: Device,
  playlistId: string,
): Promise<PlaylistItem[]> {
  const p = await ctx.data.screenViews.playlist(playlistId);
  const decision = await decideAfresh(async (fresh) => {
    const { reader, remembered } = await readerOf(ctx, caller, fresh);
    return { decision: playlistAccess(reader, p ? { id: p._id, ownerId: p.userId } : null), remembered };
  });
  if (!decision.allowed) throw new AppError(decision.refusal === 'screen' ? 'NOT_FOUND' : 'PLAYLIST_NOT_FOUND');
  if (!p) throw new AppError('PLAYLIST_NOT_FOUND');
  const items = inPlayOrder(p.items);
  const ok = await playableFromMemory(
    ctx,
    p.userId,
    items.map((i) => i.fileId),
  );
  return items.map((i) => toPlaylistItem(p._id, i, ok.get(i.fileId)));
}

/** GET /api/files/:id/pages for a display: as readableFile then filePages. */
export async function deviceFilePages(
  ctx: ServiceContext,
  caller: Device,
  fileId: string,
  use: 'play' | 'library',
): Promise<FilePage[]> {
  const { file } = await decideReadable(ctx, caller, await ctx.data.screenViews.file(fileId), use);
  return (await ctx.data.files.playerPages(file)).map((p) => toFilePage(p, file));
}
