import type { Readable } from 'node:stream';
import {
  FileIdParams,
  INTERNAL_MEDIA_ACCESS_PATH,
  INTERNAL_MEDIA_PATH,
  INTERNAL_VIDEO_ACCESS_PATH,
  MediaParams,
} from '@pagecast/contracts';
import { AppError, parseWith, requireActor } from '@pagecast/service-kit';
import { type Request, type Response, Router } from 'express';
import type { ServiceContext } from '../context';
import { imageBytes } from '../use-cases/image-bytes';
import { mediaAccess } from '../use-cases/media-access';
import { readImage } from '../use-cases/read-image';
import { parseRange, readVideo, readVideoPreview, type ServedVideo } from '../use-cases/read-video';
import { videoAccess, videoPreviewAccess } from '../use-cases/video-access';
import { callerOf } from './caller';

export const MEDIA_CACHE_CONTROL = 'private, max-age=31536000, immutable';
export const LICENCE_CACHE_CONTROL = 'private, no-cache';

/** Streams a stored image; a storage failure mid-way ends the answer. */
function pipeImage(ctx: ServiceContext, res: Response, key: string, object: { stream: Readable; size: number }) {
  res.setHeader('Content-Type', 'image/webp');
  res.setHeader('Content-Length', String(object.size));
  object.stream.on('error', (err) => {
    ctx.logger.warn({ err, key }, 'media stream failed');
    res.destroy(err);
  });
  object.stream.pipe(res);
}

/**
 * Sends a stored video as a player asks for it: one byte range (206, 416 past the end) or the whole, with its ETag
 * (304 on If-None-Match, a Range honoured unless If-Range names another version), streamed from storage as it is
 * read, never whole in memory.
 */
async function sendVideo(ctx: ServiceContext, req: Request, res: Response, fileId: string, video: ServedVideo) {
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Content-Type', video.mimeType);
  res.setHeader('Cache-Control', video.cacheControl);
  res.setHeader('ETag', video.etag);
  if (req.headers['if-none-match'] === video.etag) {
    res.status(304).end();
    return;
  }
  const ifRange = req.headers['if-range'];
  const range = ifRange && ifRange !== video.etag ? undefined : parseRange(req.headers.range, video.size);
  if (range === 'unsatisfiable') {
    res.setHeader('Content-Range', `bytes */${video.size}`);
    res.status(416).end();
    return;
  }
  const part = range ?? { start: 0, end: video.size - 1 };
  if (range) {
    res.status(206);
    res.setHeader('Content-Range', `bytes ${part.start}-${part.end}/${video.size}`);
  }
  res.setHeader('Content-Length', String(part.end - part.start + 1));
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = await video.open(part);
  if (!stream) throw new AppError('NOT_FOUND');
  stream.on('error', (err) => {
    ctx.logger.warn({ err, fileId }, 'video stream failed');
    res.destroy(err);
  });
  req.on('close', () => stream.destroy());
  stream.pipe(res);
}

const keyOf = (req: Request) => parseWith(MediaParams, req.params).key;

/**
 * Page images, `/media/<sha256>.webp`: for the owner of a file that shows one (immutable caching), a holder of a
 * live licence for such a file (revalidated, so an ended licence stops within seconds), and a paired display whose
 * screen plays such a file (domain/content-access.ts). Others get 404, as for an image that does not exist. The
 * gateway serves repeated images itself: it asks for the decision (internal media-access) and, once per image, for
 * the bytes (internal media), never deciding twice.
 */
export function mediaRouter(ctx: ServiceContext): Router {
  const router = Router();

  // The gateway's check before it serves an image from its own memory: the decision and how long it may be kept, no
  // bytes (internal: the gateway never routes /internal). A refusal is an answer, kept briefly by the gateway.
  router.get(`${INTERNAL_MEDIA_ACCESS_PATH}/:key`, async (req, res) => {
    const caller = callerOf(req, 'files.read');
    const answer = await mediaAccess(ctx, caller, String(req.params.key));
    res.setHeader('Cache-Control', 'no-store');
    res.json(answer);
  });

  // The bytes for the gateway, which has decided (above): one read per image for all its callers.
  router.get(`${INTERNAL_MEDIA_PATH}/:key`, async (req, res) => {
    if (!req.device) requireActor(req, 'files.read');
    const key = keyOf(req);
    pipeImage(ctx, res, key, await imageBytes(ctx, key));
  });

  // The gateway's check before it streams a video from storage itself: the decision of the two routes below (the
  // same use cases, the same refusals), answered with a signed read of the object instead of the bytes.
  router.get(`${INTERNAL_VIDEO_ACCESS_PATH}/:id`, async (req, res) => {
    const { id } = parseWith(FileIdParams, req.params);
    const answer = await videoAccess(ctx, callerOf(req, 'files.read'), id);
    res.setHeader('Cache-Control', 'no-store');
    res.json(answer);
  });
  router.get(`${INTERNAL_VIDEO_ACCESS_PATH}/:id/preview`, async (req, res) => {
    const { workspaceId } = requireActor(req, 'marketplace.read');
    const { id } = parseWith(FileIdParams, req.params);
    const answer = await videoPreviewAccess(ctx, workspaceId, id);
    res.setHeader('Cache-Control', 'no-store');
    res.json(answer);
  });

  // A converted video, in the byte ranges a player asks for (206), from storage as they are asked: never whole in
  // memory. Revalidated (no-cache with its ETag), so a deleted file or an ended licence stops it within seconds.
  router.get('/media/video/:id', async (req, res) => {
    const { id } = parseWith(FileIdParams, req.params);
    await sendVideo(ctx, req, res, id, await readVideo(ctx, callerOf(req, 'files.read'), id));
  });

  // The watermarked preview clip of a video on sale, for any member, with Range like the video: what the
  // marketplace plays before a licence is bought (the video itself stays refused until then).
  router.get('/media/video/:id/preview', async (req, res) => {
    const { workspaceId } = requireActor(req, 'marketplace.read');
    const { id } = parseWith(FileIdParams, req.params);
    await sendVideo(ctx, req, res, id, await readVideoPreview(ctx, workspaceId, id));
  });

  router.get('/media/:key', async (req, res) => {
    const caller = callerOf(req, 'files.read');
    const key = keyOf(req);
    const image = await readImage(ctx, caller, key);
    const etag = `"${key}"`;
    // A buyer's browser asks again each time (a cheap 304 while the licence lasts), so an ended licence shows nothing.
    res.setHeader('Cache-Control', image.access === 'owner' ? MEDIA_CACHE_CONTROL : LICENCE_CACHE_CONTROL);
    res.setHeader('ETag', etag);
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    const object = await image.open();
    if (!object) {
      res.removeHeader('Cache-Control');
      throw new AppError('NOT_FOUND');
    }
    pipeImage(ctx, res, key, object);
  });

  return router;
}
