// Who reads for the player: a member, or a paired display (issue 12) reading as its screen's owner but only what
// is assigned to its screen (the screens service's events, kept in data.screenContent).
import { AppError, requireIdentity } from '@pagecast/service-kit';
import type { Request } from 'express';
import type { Repositories } from '../data';
import { TtlLru } from './access-cache';

export interface PlaylistLookup {
  findOwned(id: string, userId: string): PromiseLike<{ items: Array<{ fileId: string }> } | null>;
}

type PlayerTarget = { fileId: string } | { playlistId: string } | { fileIds: string[] };

/** What a screen may read: its playlists, and its files with the items of those playlists. */
interface ScreenView {
  ownerId: string;
  playlistIds: Set<string>;
  files: Set<string>;
}

/** How long what a screen may read is remembered (a display booting asks for its playlist, pages and images). */
const SCREEN_VIEW_MEMO_MS = 5_000;

/**
 * The user whose access applies: the member, or the owner of the device's screen when the playlist or file is
 * assigned to that screen (a file also when it is in one of its playlists). Anything else: 404, as for a file or
 * playlist that does not exist.
 *
 * What each screen may read is remembered a few seconds: a display fetches its playlist, pages and images one after
 * another, and each would read its screen and playlists again (FerretDB queries). A remembered view never refuses:
 * a refusal is checked again against a fresh read (a file assigned a moment ago). A view read before a change this
 * process applied is not used (`screenContent.version`); another instance's change shows within the memo's time,
 * and a revoked display is refused by the gateway at once.
 */
export function createPlayerAccess(data: Pick<Repositories, 'screenContent'>, playlists: PlaylistLookup) {
  const memo = new TtlLru<{ view: ScreenView | null; version: number }>(20_000, SCREEN_VIEW_MEMO_MS);

  const read = async (device: { screenId: string; ownerId: string }): Promise<ScreenView | null> => {
    const content = await data.screenContent.get(device.screenId);
    if (!content) return null;
    const files = new Set(content.fileIds);
    const lists = await Promise.all(content.playlistIds.map((id) => playlists.findOwned(id, content.ownerId)));
    for (const list of lists) for (const item of list?.items ?? []) files.add(item.fileId);
    return { ownerId: content.ownerId, playlistIds: new Set(content.playlistIds), files };
  };

  const viewOf = async (device: { screenId: string; ownerId: string }, fresh: boolean) => {
    const version = data.screenContent.version;
    const hit = fresh ? undefined : memo.get(device.screenId);
    if (hit && hit.version === version) return { view: hit.view, remembered: true };
    const view = await read(device);
    // a change applied while reading may be missing from what was read: not remembered
    if (data.screenContent.version === version) memo.set(device.screenId, { view, version });
    return { view, remembered: false };
  };

  const permits = (view: ScreenView, target: PlayerTarget) => {
    if ('playlistId' in target) return view.playlistIds.has(target.playlistId);
    const wanted = 'fileId' in target ? [target.fileId] : target.fileIds;
    return wanted.some((id) => view.files.has(id));
  };

  return {
    async userId(req: Request, target: PlayerTarget): Promise<string> {
      const device = req.device;
      if (!device) return requireIdentity(req).userId;
      const mine = (view: ScreenView | null): view is ScreenView => view?.ownerId === device.ownerId;
      let { view, remembered } = await viewOf(device, false);
      if (remembered && !(mine(view) && permits(view, target))) view = (await viewOf(device, true)).view;
      if (!mine(view)) throw new AppError('NOT_FOUND');
      if (!permits(view, target)) {
        throw new AppError('playlistId' in target ? 'PLAYLIST_NOT_FOUND' : 'FILE_NOT_FOUND');
      }
      return device.ownerId;
    },
  };
}
export type PlayerAccess = ReturnType<typeof createPlayerAccess>;
