import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock, Logger } from '@pagecast/service-kit';
import { defaultLimits, defaultRenderPool, makePreviewClipOf, type RenderPool } from '../conversion/index.ts';
import type { FileDoc, Repositories } from '../data';
import { storageKeys } from '../domain';
import type { QueryFilter } from 'mongoose';

/**
 * The backfill of preview clips: a converted video with no clip (converted before clips were made, or its clip
 * failed) gets one from its stored video. Bounded: a few files a sweep, one at a time in the render pool; each file's
 * tries are counted on it, so a video whose clip always fails is left after `maxAttempts` (its listing keeps the
 * watermarked poster).
 */
export const clipBackfill = {
  /** a sweep this often (and one at the service's start) */
  everyMs: 10 * 60 * 1000,
  /** clips made at most per sweep, one after another */
  perSweep: 5,
  /** tries per file, ever */
  maxAttempts: 3,
  /** a video converted this recently may still be making its clip at conversion: left to it */
  graceMs: 10 * 60 * 1000,
  /** a try begun this recently (another instance's, still running) is not begun again */
  leaseMs: 30 * 60 * 1000,
};
export type ClipBackfillOptions = typeof clipBackfill;

export interface ClipBackfillDeps {
  data: Repositories;
  clock: Clock;
  logger: Logger;
  pool?: RenderPool;
}

/** One sweep: the clips it made. */
export async function backfillPreviewClips(
  deps: ClipBackfillDeps,
  opts: ClipBackfillOptions = clipBackfill,
): Promise<number> {
  let made = 0;
  for (let i = 0; i < opts.perSweep; i++) {
    const file = await claimNext(deps, opts);
    if (!file) break;
    if (await makeClip(deps, file)) made++;
  }
  return made;
}

/**
 * The next video without a clip whose tries are not spent, its try counted before it begins (a crash counts too).
 * Found first, then claimed under the file's write lock with the same condition (every write of a file takes it); null
 * when there is none, or when another instance claimed it in between (the next sweep goes on).
 */
async function claimNext(deps: ClipBackfillDeps, opts: ClipBackfillOptions): Promise<FileDoc | null> {
  const now = deps.clock.now();
  const due: QueryFilter<FileDoc> = {
    kind: 'video',
    status: 'private',
    video: { $ne: null },
    'video.preview': null,
    'conversion.finishedAt': { $lte: new Date(now.getTime() - opts.graceMs) },
    $and: [
      { $or: [{ 'video.clipAttempts': { $exists: false } }, { 'video.clipAttempts': { $lt: opts.maxAttempts } }] },
      {
        $or: [
          { 'video.clipTriedAt': { $exists: false } },
          { 'video.clipTriedAt': null },
          { 'video.clipTriedAt': { $lte: new Date(now.getTime() - opts.leaseMs) } },
        ],
      },
    ],
  };
  const next = await deps.data.models.files
    .findOne(due)
    .sort({ 'conversion.finishedAt': 1, _id: 1 })
    .select({ _id: 1 })
    .lean<Pick<FileDoc, '_id'>>();
  if (!next) return null;
  return deps.data.files.findAndUpdateWhere(next._id, due, {
    $inc: { 'video.clipAttempts': 1 },
    $set: { 'video.clipTriedAt': now },
  });
}

/** The clip from the stored video (the original may be gone from this machine), stored beside it. */
async function makeClip(deps: ClipBackfillDeps, file: FileDoc): Promise<boolean> {
  const { data, logger } = deps;
  const key = storageKeys.videoPreview(file._id);
  const dir = await mkdtemp(join(tmpdir(), 'pagecast-clip-backfill-'));
  try {
    const path = join(dir, 'video');
    await data.storage.downloadTo(storageKeys.video(file._id), path);
    const clip = await makePreviewClipOf(path, file.video?.mimeType === 'video/webm' ? 'webm' : 'mp4', {
      pool: deps.pool ?? defaultRenderPool(),
      signal: AbortSignal.timeout(defaultLimits.videoTimeoutMs),
      onClip: (c) => data.storage.putFile(key, c.path, c.mimeType),
    });
    const stored = await data.files.updateWhere(file._id, { status: 'private' }, { $set: { 'video.preview': clip } });
    // deleted while the clip was made: the delete could not see that object yet
    if (stored.matchedCount === 0) await data.storage.remove([key]);
    logger.info({ fileId: file._id }, 'video preview clip made by the backfill');
    return stored.matchedCount > 0;
  } catch (err) {
    logger.warn({ err, fileId: file._id, attempts: file.video?.clipAttempts }, 'video preview clip backfill failed');
    return false;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
