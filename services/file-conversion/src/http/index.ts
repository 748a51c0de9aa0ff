import { Router } from 'express';
import type { ServiceContext } from '../context';
import { TtlLru } from './access-cache';
import { createPlaylistsRepo } from '../data/playlists';
import { filesRouter } from './files';
import { type MediaAccess, mediaRouter } from './media';
import { createPlayerAccess } from './player-identity';
import { playlistsRouter } from './playlists';
import { previewsRouter } from './previews';

export { MEDIA_CACHE_CONTROL } from './media';

/** (userId, image key) → access, for 60 s (a licence's: 3 s): page images are asked for far more than anything. */
const MEDIA_CACHE_TTL_MS = 60_000;
/** image key → the files that show it, for a display's check (media.ts: a refusal always reads afresh). */
const SHOWING_MEMO_MS = 5_000;

/** The service's HTTP routes (paths as in the contracts' route table, validated with its schemas via parseWith). */
export function createRouter(context: ServiceContext): Router {
  const router = Router();
  const mediaCache = new TtlLru<MediaAccess>(50_000, MEDIA_CACHE_TTL_MS);
  const showingMemo = new TtlLru<string[]>(10_000, SHOWING_MEMO_MS);
  const forgetKeys = (keys: string[]) => {
    const gone = new Set(keys);
    mediaCache.deleteWhere((k) => gone.has(k.slice(k.indexOf('\u0000') + 1)));
    showingMemo.deleteWhere((k) => gone.has(k));
  };
  // one view of what each paired screen may read, for its playlist, pages and images alike
  const access = createPlayerAccess(context.data, { findOwned: createPlaylistsRepo(context.conn).findOwnedBatched });
  router.use(previewsRouter(context));
  router.use(filesRouter(context, access, forgetKeys));
  router.use(playlistsRouter(context, access));
  router.use(mediaRouter(context, access, mediaCache, showingMemo));
  return router;
}
