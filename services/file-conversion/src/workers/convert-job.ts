import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventData } from '@pagecast/contracts';
import type { Clock, Logger, Outbox } from '@pagecast/service-kit';
import {
  convertDocument,
  defaultLimits,
  defaultRenderPool,
  makePreviewClip,
  type RenderPool,
  type VideoProbe,
} from '../conversion/index.ts';
import type { FileDoc, Repositories } from '../data';
import { analyseCopyright, storageKeys } from '../domain';
import { announceFileChange } from '../events/publish';
import type { LocalOriginals } from './local-originals';

/** The file was deleted (or left processing) while its job ran: the job stops and cleans up. */
export class FileGoneError extends Error {
  constructor(fileId: string) {
    super(`file ${fileId} is no longer being converted`);
    this.name = 'FileGoneError';
  }
}

/** The worker is stopping: the job is handed back to the queue. */
export class WorkerStoppingError extends Error {
  constructor() {
    super('worker stopping');
    this.name = 'WorkerStoppingError';
  }
}

export interface JobDeps {
  data: Repositories;
  outbox: Outbox;
  /** the service's clock: when a conversion finished */
  clock: Clock;
  logger: Logger;
  pool?: RenderPool;
  /** Originals already on this machine (the upload that just arrived), by file id: saves the download. */
  localOriginals?: LocalOriginals;
  stopping: () => boolean;
}

/**
 * Converts one file: original → engine → each page's WebP and thumbnail stored under its content hash, its page
 * document upserted (a re-run replaces pages by number) and progress announced as it finishes; then the copyright
 * text analysis and the final status. Throws the engine's ConversionError for a file it refuses.
 */
export async function convertFile(
  deps: JobDeps,
  file: FileDoc,
  job: EventData<'files.conversion.requested.v1'>,
  attempt: number,
): Promise<FileDoc> {
  const { data, outbox, logger } = deps;
  const repo = data.files;
  const started = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'pagecast-job-'));
  try {
    let path = deps.localOriginals?.get(file._id);
    if (!path) {
      path = join(dir, 'original');
      await data.storage.downloadTo(job.objectKey, path);
    }
    await repo.update(file._id, { 'conversion.attempts': attempt });
    let totalKnown = false;
    let lastPercent = -1;
    let lastWrite = 0;
    let progressWrite: Promise<unknown> = Promise.resolve();
    const result = await convertDocument(
      { path, declaredName: file.filename },
      {
        pool: deps.pool ?? defaultRenderPool(),
        tmpDir: dir,
        // a transcode's progress on the file (File management reads it live), at most once a second
        onProgress: (done) => {
          const percent = Math.floor(done * 100);
          const now = performance.now();
          if (percent === lastPercent || (percent < 100 && now - lastWrite < 1000)) return;
          lastPercent = percent;
          lastWrite = now;
          progressWrite = progressWrite
            .then(() =>
              data.files.updateWhere(file._id, { status: 'processing' }, { $set: { 'conversion.percent': percent } }),
            )
            .catch((err: unknown) => logger.warn({ err, fileId: file._id }, 'transcode progress not recorded'));
        },
        // the upload's probe of these bytes: the conversion does not probe them again
        videoSource: file.sourceProbe ?? undefined,
        // the playable video goes to storage before the engine's scratch directory does
        onVideo: (video) => data.storage.putFile(storageKeys.video(file._id), video.path, video.mimeType),
      },
      async (page) => {
        if (deps.stopping()) throw new WorkerStoppingError();
        if (page.pageNumber === 1)
          logger.debug({ fileId: file._id, ms: Math.round(performance.now() - started) }, 'first page rendered');
        await Promise.all([
          data.storage.putBuffer(storageKeys.page(page.sha256), page.webp, 'image/webp'),
          data.storage.putBuffer(storageKeys.page(page.thumbnail.sha256), page.thumbnail.webp, 'image/webp'),
        ]);
        if (!totalKnown) {
          // the total is on the file before its first page shows, so progress never reads "1 of 0"
          const marked = await data.files.updateWhere(
            file._id,
            { status: 'processing' },
            { $set: { 'conversion.pagesTotal': page.pageCount } },
          );
          if (marked.matchedCount === 0) throw new FileGoneError(file._id);
          totalKnown = true;
        }
        await repo.upsertPage({
          fileId: file._id,
          ownerId: file.userId,
          pageNumber: page.pageNumber,
          imageKey: page.sha256,
          thumbKey: page.thumbnail.sha256,
          keys: [page.sha256, page.thumbnail.sha256],
          width: page.width,
          height: page.height,
          displayDuration: file.displayDuration,
          text: page.text,
        });
        const pagesDone = await repo.countPages(file._id);
        const set: Record<string, unknown> = {
          'conversion.pagesDone': pagesDone,
          'conversion.pagesTotal': page.pageCount,
        };
        if (page.pageNumber === 1) set.thumbKey = page.thumbnail.sha256;
        const updated = await data.files.updateWhere(file._id, { status: 'processing' }, { $set: set });
        if (updated.matchedCount === 0) throw new FileGoneError(file._id);
        await outbox.add('files.page.ready.v1', {
          fileId: file._id,
          ownerId: file.userId,
          pageNumber: page.pageNumber,
          imageKey: page.sha256,
          pagesDone,
          pageCount: page.pageCount,
        });
      },
    );
    // A re-run of a file that had more pages (cannot happen for the same bytes, but stays correct).
    await removeUnusedObjects(data, await repo.deletePages(file._id, result.pageCount));

    const analysis = analyseCopyright(result.text);
    await repo.recordTextAnalysis(
      file._id,
      analysis,
      `${result.kind}, ${result.pageCount} pages, ${result.text.length} characters`,
    );

    await progressWrite;
    const finishedAt = deps.clock.now();
    const v = result.video;
    const done = await data.files.findAndUpdateWhere(
      file._id,
      { status: 'processing' },
      {
        $set: {
          status: 'private',
          pageCount: result.pageCount,
          'conversion.pagesDone': result.pageCount,
          'conversion.pagesTotal': result.pageCount,
          'conversion.finishedAt': finishedAt,
          updatedAt: finishedAt,
          // a photo's size as drawn from its decoded pixels (the upload read it from the header)
          ...(result.image
            ? { media: { format: result.image.format, width: result.image.width, height: result.image.height } }
            : {}),
          // a video: what is stored and played (kept or transcoded, and why), its size, length and codecs
          ...(v
            ? {
                media: {
                  format: v.source.container,
                  width: v.output.width,
                  height: v.output.height,
                  durationMs: v.output.durationMs,
                  videoCodec: v.output.videoCodec,
                  audioCodec: v.output.audioCodec,
                  processing: v.processing,
                  transcodeReasons: v.reasons,
                },
                video: { mimeType: v.mimeType, bytes: v.bytes, sha256: v.sha256, preview: null },
                'conversion.percent': null,
              }
            : {}),
        },
      },
    );
    if (!done) {
      // deleted while its video was being stored: the delete could not see that object yet
      if (v) await data.storage.remove([storageKeys.video(file._id), storageKeys.videoPreview(file._id)]);
      throw new FileGoneError(file._id);
    }
    await announceFileChange(outbox, done);
    // the marketplace's preview clip, once the video already plays (it never delays the first play)
    if (v) await makeClip(deps, done, path, v.source);
    logger.info(
      {
        fileId: file._id,
        kind: result.kind,
        pages: result.pageCount,
        timings: result.timings,
        risk: analysis.riskLevel,
      },
      'file converted',
    );
    return done;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A converted video's watermarked preview clip (conversion's makePreviewClip: same sandbox, same render pool), made
 * from the original still on this machine and stored beside the video. Made for every video at conversion, so a
 * video can be put on sale at once: publishing is a call answered by the API, which converts nothing. A clip that
 * fails leaves the video playable and its listing shows the watermarked poster until the backfill makes one
 * (clip-backfill.ts).
 */
async function makeClip(deps: JobDeps, file: FileDoc, original: string, source: VideoProbe): Promise<void> {
  const { data, logger } = deps;
  const key = storageKeys.videoPreview(file._id);
  try {
    const clip = await makePreviewClip(original, source, {
      pool: deps.pool ?? defaultRenderPool(),
      signal: AbortSignal.timeout(defaultLimits.videoTimeoutMs),
      onClip: (c) => data.storage.putFile(key, c.path, c.mimeType),
    });
    const stored = await data.files.updateWhere(file._id, { status: 'private' }, { $set: { 'video.preview': clip } });
    // deleted while the clip was made: the delete could not see that object yet
    if (stored.matchedCount === 0) await data.storage.remove([key]);
  } catch (err) {
    logger.warn({ err, fileId: file._id }, 'video preview clip not made');
  }
}

/** Page objects are shared by content: an object goes only when no page of any file shows it any more. */
export async function removeUnusedObjects(data: Repositories, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const inUse = await data.files.keysInUse(keys);
  const unused = keys.filter((k) => !inUse.has(k));
  await data.storage.remove([
    ...unused.map((k) => storageKeys.page(k)),
    ...unused.flatMap((k) => [storageKeys.preview(k, 'thumb'), storageKeys.preview(k, 'page')]),
  ]);
}

/** A failed conversion: the file stays (it holds its tier slot until the member deletes it) but cannot be played. */
export async function disableFile(
  deps: Pick<JobDeps, 'data' | 'outbox' | 'clock'>,
  fileId: string,
  reason: string,
): Promise<void> {
  const { data, outbox } = deps;
  const finishedAt = deps.clock.now();
  const disabled = await data.files.findAndUpdateWhere(
    fileId,
    { status: 'processing' },
    {
      $set: {
        status: 'disabled',
        disabledReason: reason,
        isPublished: false,
        'conversion.finishedAt': finishedAt,
        updatedAt: finishedAt,
      },
    },
  );
  if (!disabled) return;
  // Pages a failed run stored are not playable: they go. So does a video's playable file, which is stored while it
  // is checked (convertVideo), before a failed check fails the run.
  await removeUnusedObjects(data, await data.files.deletePages(fileId));
  if (disabled.kind === 'video') await data.storage.remove([storageKeys.video(fileId)]);
  await data.files.updateWhere(fileId, {}, { $set: { 'conversion.pagesDone': 0, thumbKey: null } });
  await announceFileChange(outbox, { ...disabled, thumbKey: null });
}
