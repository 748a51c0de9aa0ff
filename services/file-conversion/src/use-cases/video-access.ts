import type { VideoAccessAnswer } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { OWNER_KEEP_MS } from '../domain';
import { readVideo, readVideoPreview, type ServedVideo } from './read-video';
import type { Caller } from './reader';

/**
 * How long the signed read of the object lasts. The gateway reuses an answer for its `maxAgeMs` (60 s at most), so
 * the URL outlives every answer that carries it; it never leaves the gateway.
 */
export const VIDEO_URL_SECONDS = 300;

async function answer(ctx: ServiceContext, video: ServedVideo): Promise<VideoAccessAnswer> {
  return {
    url: await ctx.data.storage.signedGetUrl(video.key, VIDEO_URL_SECONDS),
    size: video.size,
    mimeType: video.mimeType,
    etag: video.etag,
    cacheControl: video.cacheControl,
    maxAgeMs: Math.max(0, Math.min(video.keepMs, OWNER_KEEP_MS)),
  };
}

/**
 * The gateway's question before it streams a video from storage itself: the same decision as GET /media/video/<id>
 * (readVideo: refusals throw the same errors), answered with where the bytes are instead of the bytes.
 */
export async function videoAccess(ctx: ServiceContext, caller: Caller, fileId: string): Promise<VideoAccessAnswer> {
  return answer(ctx, await readVideo(ctx, caller, fileId));
}

/** As videoAccess, for the preview clip of a video on sale (readVideoPreview: any member while it is on sale). */
export async function videoPreviewAccess(
  ctx: ServiceContext,
  userId: string,
  fileId: string,
): Promise<VideoAccessAnswer> {
  return answer(ctx, await readVideoPreview(ctx, userId, fileId));
}
