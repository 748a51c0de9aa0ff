// Who reads for the player: a member, or a paired display (issue 12) reading as its screen's owner but only what
// is assigned to its screen (the screens service's events, kept in data.screenContent).
import { AppError, requireIdentity } from '@pagecast/service-kit';
import type { Request } from 'express';
import type { Repositories } from '../data';

export interface PlaylistLookup {
  findOwned(id: string, userId: string): PromiseLike<{ items: Array<{ fileId: string }> } | null>;
}

/**
 * The user whose access applies: the member, or the owner of the device's screen when the playlist or file is
 * assigned to that screen (a file also when it is in one of its playlists). Anything else: 404, as for a file or
 * playlist that does not exist.
 */
export async function playerUserId(
  req: Request,
  data: Pick<Repositories, 'screenContent'>,
  playlists: PlaylistLookup,
  target: { fileId: string } | { playlistId: string } | { fileIds: string[] },
): Promise<string> {
  const device = req.device;
  if (!device) return requireIdentity(req).userId;
  const content = await data.screenContent.get(device.screenId);
  if (!content || content.ownerId !== device.ownerId) throw new AppError('NOT_FOUND');
  if ('playlistId' in target) {
    if (!content.playlistIds.includes(target.playlistId)) throw new AppError('PLAYLIST_NOT_FOUND');
    return device.ownerId;
  }
  const wanted = 'fileId' in target ? [target.fileId] : target.fileIds;
  const allowed = new Set(content.fileIds);
  for (const playlistId of content.playlistIds) {
    if (wanted.every((id) => allowed.has(id))) break;
    const playlist = await playlists.findOwned(playlistId, device.ownerId);
    for (const item of playlist?.items ?? []) allowed.add(item.fileId);
  }
  if (!wanted.some((id) => allowed.has(id))) throw new AppError('FILE_NOT_FOUND');
  return device.ownerId;
}
