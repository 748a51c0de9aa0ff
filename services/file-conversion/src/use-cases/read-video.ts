import type { Readable } from 'node:stream';
import { AppError, type ByteRange } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { storageKeys } from '../domain';
import { fileOnSale } from './file-on-sale';
import { readableFile } from './readable-file';
import type { Caller } from './reader';

// the Range rules, shared with the gateway, which serves the same ranges (service-kit byte-range.ts)
export { type ByteRange, parseRange } from '@pagecast/service-kit';

/** A stored video as the Range route serves it: its size, type, version and a reader of byte ranges. */
export interface ServedVideo {
  size: number;
  mimeType: string;
  etag: string;
  /** how the browser may keep it */
  cacheControl: string;
  /** the stored object (the gateway reads its ranges itself: use-cases/video-access.ts) */
  key: string;
  /** how long the decision behind this answer may be reused (domain/content-access.ts) */
  keepMs: number;
  open: (range: ByteRange) => Promise<Readable | undefined>;
}

/**
 * A converted video for a caller who may play its file (domain/content-access.ts, as for its page images: the owner,
 * a licence holder, a display whose screen plays it); anyone else, a file still converting or not a video: 404.
 */
export async function readVideo(ctx: ServiceContext, caller: Caller, fileId: string): Promise<ServedVideo> {
  const { file, decision } = await readableFile(ctx, caller, fileId, 'play');
  // a file on sale shows its previews only, never its video
  if (decision.access === 'preview') throw new AppError('NOT_FOUND');
  if (file.kind !== 'video' || file.status !== 'private' || !file.video) throw new AppError('NOT_FOUND');
  const key = storageKeys.video(file._id);
  return {
    size: file.video.bytes,
    mimeType: file.video.mimeType,
    etag: `"${file.video.sha256}"`,
    // revalidated, so a deleted file or an ended licence stops it within seconds
    cacheControl: 'private, no-cache',
    key,
    keepMs: decision.keepMs,
    open: (range: ByteRange) => ctx.data.storage.getRange(key, range.start, range.end - range.start + 1),
  };
}

/**
 * The watermarked preview clip of a video on sale, for any member (domain/content-access.ts: previews while on
 * sale, kept as long as a preview may be): the only video sent before a licence. 404 when the file is not on sale,
 * not a video, or has no clip (converted before clips were made).
 */
export async function readVideoPreview(ctx: ServiceContext, userId: string, fileId: string): Promise<ServedVideo> {
  const { file, decision } = await fileOnSale(ctx, userId, fileId);
  const clip = file.kind === 'video' ? file.video?.preview : null;
  if (!clip) throw new AppError('FILE_NOT_FOUND', { status: 404 });
  const key = storageKeys.videoPreview(file._id);
  return {
    size: clip.bytes,
    mimeType: clip.mimeType,
    etag: `"${clip.sha256}"`,
    cacheControl: `private, max-age=${Math.floor(decision.keepMs / 1000)}`,
    key,
    keepMs: decision.keepMs,
    open: (range: ByteRange) => ctx.data.storage.getRange(key, range.start, range.end - range.start + 1),
  };
}
