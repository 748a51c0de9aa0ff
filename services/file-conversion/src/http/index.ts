import { Router } from 'express';
import type { ServiceContext } from '../context';
import { filesRouter } from './files';
import { mediaRouter } from './media';
import { playlistsRouter } from './playlists';
import { previewsRouter } from './previews';
import { resumableUploadRouter } from './resumable-upload';

export { MEDIA_CACHE_CONTROL } from './media';

/** The service's HTTP routes (paths as in the contracts' route table, validated with its schemas via parseWith). */
export function createRouter(context: ServiceContext): Router {
  const router = Router();
  // before the files' routes: /api/files/uploads/<id> is not a file id
  router.use(resumableUploadRouter(context));
  router.use(previewsRouter(context));
  router.use(filesRouter(context));
  router.use(playlistsRouter(context));
  router.use(mediaRouter(context));
  return router;
}
