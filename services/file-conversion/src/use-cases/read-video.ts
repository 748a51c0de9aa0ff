import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { storageKeys } from '../domain';
import { readableFile } from './readable-file';
import type { Caller } from './reader';

/** A byte range of the stored video, inclusive, as HTTP states it. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Parses a Range header against the object's size: one range (`bytes=a-b`, `bytes=a-`, `bytes=-n`), clipped to the
 * end. undefined: no usable Range (absent, several ranges, another unit), so the whole file is sent; 'unsatisfiable':
 * a range that starts past the end (416).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/**
 * A converted video for a caller who may play its file (domain/content-access.ts, as for its page images: the owner,
 * a licence holder, a display whose screen plays it); anyone else, a file still converting or not a video: 404.
 */
export async function readVideo(ctx: ServiceContext, caller: Caller, fileId: string) {
  const { file, decision } = await readableFile(ctx, caller, fileId, 'play');
  // a file on sale shows its previews only, never its video
  if (decision.access === 'preview') throw new AppError('NOT_FOUND');
  if (file.kind !== 'video' || file.status !== 'private' || !file.video) throw new AppError('NOT_FOUND');
  const key = storageKeys.video(file._id);
  return {
    access: decision.access,
    size: file.video.bytes,
    mimeType: file.video.mimeType,
    etag: `"${file.video.sha256}"`,
    open: (range: ByteRange) => ctx.data.storage.getRange(key, range.start, range.end - range.start + 1),
  };
}
