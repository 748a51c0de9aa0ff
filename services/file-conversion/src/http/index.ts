import { Router } from 'express';
import type { ServiceContext } from '../server';
import { TtlLru } from './access-cache';
import { filesRouter } from './files';
import { mediaRouter } from './media';
import { playlistsRouter } from './playlists';

export { MEDIA_CACHE_CONTROL } from './media';
export { jobId } from './upload';

/** (userId, image key) → allowed, for 60 s: page images are asked for far more often than anything else. */
const MEDIA_CACHE_TTL_MS = 60_000;

/** The service's HTTP routes (paths as in the contracts' route table, validated with its schemas via parseWith). */
export function createRouter(context: ServiceContext): Router {
  const router = Router();
  const mediaCache = new TtlLru<boolean>(50_000, MEDIA_CACHE_TTL_MS);
  const forgetKeys = (keys: string[]) => {
    const gone = new Set(keys);
    mediaCache.deleteWhere((k) => gone.has(k.slice(k.indexOf('\u0000') + 1)));
  };
  router.use(filesRouter(context, forgetKeys));
  router.use(playlistsRouter(context));
  router.use(mediaRouter(context, mediaCache));
  return router;
}
