// What each paired screen plays (issue 12), as the content-access rule needs it (domain/content-access.ts): the
// screens service's events (screen-content.ts) with the items of the screen's playlists.
import { LRUCache } from 'lru-cache';
import type { ScreenView } from '../domain';
import type { PlaylistsRepo } from './playlists';
import type { ScreenContent } from './screen-content';

/** How long what a screen plays is remembered (a display booting asks for its playlist, pages and images). */
const SCREEN_VIEW_MEMO_MS = 5_000;
const SCREEN_VIEWS_KEPT = 20_000;

/**
 * What a screen plays, remembered a few seconds: a display fetches its playlist, pages and images one after another,
 * and each would read its screen and playlists again (FerretDB queries). The caller reads afresh before it refuses
 * on a remembered view (a file assigned a moment ago). A view read before a change this process applied is not used
 * (`screenContent.version`); another instance's change shows within the memo's time, and a revoked display is
 * refused by the gateway at once.
 */
export function createScreenViews(screenContent: ScreenContent, playlists: Pick<PlaylistsRepo, 'findOwnedBatched'>) {
  const memo = new LRUCache<string, { view: ScreenView | null; version: number }>({
    max: SCREEN_VIEWS_KEPT,
    ttl: SCREEN_VIEW_MEMO_MS,
  });

  const read = async (screenId: string): Promise<ScreenView | null> => {
    const content = await screenContent.get(screenId);
    if (!content) return null;
    const fileIds = new Set(content.fileIds);
    const lists = await Promise.all(content.playlistIds.map((id) => playlists.findOwnedBatched(id, content.ownerId)));
    for (const list of lists) for (const item of list?.items ?? []) fileIds.add(item.fileId);
    return { ownerId: content.ownerId, playlistIds: new Set(content.playlistIds), fileIds };
  };

  return {
    /** What the screen plays (null: unknown or unpaired), remembered unless `fresh`, and whether it was. */
    async get(screenId: string, fresh: boolean): Promise<{ view: ScreenView | null; remembered: boolean }> {
      const version = screenContent.version;
      const hit = fresh ? undefined : memo.get(screenId);
      if (hit && hit.version === version) return { view: hit.view, remembered: true };
      const view = await read(screenId);
      // a change applied while reading may be missing from what was read: not remembered
      if (screenContent.version === version) memo.set(screenId, { view, version });
      return { view, remembered: false };
    },
  };
}
export type ScreenViews = ReturnType<typeof createScreenViews>;
