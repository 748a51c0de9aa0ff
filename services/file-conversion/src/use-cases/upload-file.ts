import { randomUUID } from 'node:crypto';
import { constants, type ErrorCode, isErrorCode, type MediaInfo, type UploadFileFields } from '@pagecast/contracts';
import { AppError, type AuditActor, nameUuid } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConversionError,
  defaultLimits,
  guardZip,
  isConversionError,
  isMediaFile,
  probeVideo,
  readImageHeader,
  sniffFile,
  type VideoProbe,
} from '../conversion/index.ts';
import type { FileDoc } from '../data';
import { storageKeys } from '../domain';
import { auditFileChange } from '../events/audit';

/** The uploaded file as the route received it: streamed to a temp file, never whole in memory. */
export interface ReceivedFile {
  path: string;
  filename: string;
  size: number;
  /**
   * The same bytes already in the bucket under this key (a finished resumable upload): the original is copied there
   * by the storage rather than sent again.
   */
  storedKey?: string;
}

/** A job's message id from the file and attempt: the same job published twice is stored once. */
export function jobId(fileId: string, attempt: number): string {
  return nameUuid(`${fileId}:${attempt}`, 'v4');
}

/**
 * The type from the bytes (the name and the browser's type are never trusted), the size it may have (a document
 * 10 MB, a photo or video 2 GiB), the ZIP bounds of an Office file,
 * and a photo's header: its format and size, refused at once when it claims too many pixels or too long a shape.
 */
async function kindOf(
  path: string,
  size: number,
  /** The type is known from the bytes (the checks of their structure go on): the original may be stored meanwhile. */
  onType: (contentType: string) => void,
): Promise<{ kind: FileDoc['kind']; media: MediaInfo | null; probe?: VideoProbe }> {
  try {
    // Past 10 MB (the resumable path takes up to 2 GiB) only a photo or a video goes on, refused before anything
    // else reads its structure: a document keeps the spec's limit whatever its name said.
    if (size > constants.upload.maxMediaBytes) throw new AppError('MEDIA_TOO_LARGE');
    if (size > constants.upload.maxBytes && !(await isMediaFile(path))) throw new AppError('FILE_TOO_LARGE');
    const sniffed = await sniffFile(path);
    if (sniffed.zip) guardZip(sniffed.zip);
    onType(originalType(sniffed.kind, sniffed.image ?? sniffed.video));
    if (sniffed.image) {
      const { format, width, height } = await readImageHeader(path, sniffed.image);
      return { kind: 'image', media: { format, width, height } };
    }
    if (sniffed.video) {
      // ffprobe in the sandbox now, so a hostile or broken video is refused before anything is stored
      const dir = await mkdtemp(join(tmpdir(), 'pagecast-probe-'));
      const timeout = new AbortController();
      const timer = setTimeout(
        () => timeout.abort(new ConversionError('FILE_CONVERSION_TIMEOUT', 'the video took too long to read')),
        30_000,
      );
      try {
        const p = await probeVideo(path, sniffed.video, {
          limits: defaultLimits,
          isolateNetwork: 'auto',
          cwd: dir,
          signal: timeout.signal,
        });
        return {
          kind: 'video',
          media: {
            format: sniffed.video,
            width: p.width,
            height: p.height,
            durationMs: p.durationMs,
            videoCodec: p.videoCodec,
            audioCodec: p.audioCodec,
          },
          probe: p,
        };
      } finally {
        clearTimeout(timer);
        await rm(dir, { recursive: true, force: true });
      }
    }
    return { kind: sniffed.kind, media: null };
  } catch (err) {
    if (isConversionError(err)) {
      const code: ErrorCode = isErrorCode(err.code) ? err.code : 'FILE_TYPE_UNSUPPORTED';
      throw new AppError(code, { status: err.status, cause: err });
    }
    throw err;
  }
}

/** A refused or failed upload's original goes, once its storing has ended (however it ended). */
async function removeOriginal(ctx: ServiceContext, storing: Promise<void>, key: string): Promise<void> {
  await storing.catch(() => {});
  await ctx.data.storage.remove([key]).catch(() => {});
}

/** The stored original's content type, from what the bytes said (a photo's or a video's format). */
function originalType(kind: FileDoc['kind'], format: string | undefined): string {
  if (kind === 'pdf' || kind === 'pptx' || kind === 'docx') return constants.upload.mimeTypes[kind];
  if (kind === 'image' && format && format in constants.upload.imageMimeTypes)
    return constants.upload.imageMimeTypes[format as keyof typeof constants.upload.imageMimeTypes];
  if (kind === 'video' && format && format in constants.upload.videoMimeTypes)
    return constants.upload.videoMimeTypes[format as keyof typeof constants.upload.videoMimeTypes];
  return 'application/octet-stream';
}

/**
 * A member's parsed upload becomes a file: every rule (type from the bytes, ZIP bounds, the tier's file limit) is
 * checked before anything is stored, and a refusal or failure leaves nothing behind. Then the original is stored, the
 * file and its copyright recorded, and the outbox queues the conversion and announces the upload.
 */
export async function uploadFile(
  ctx: ServiceContext,
  userId: string,
  input: UploadFileFields,
  file: ReceivedFile,
  /** Called once the local originals keep the temp file (the conversion reads it there): the caller leaves it. */
  onTempKept: () => void,
  actor: AuditActor,
): Promise<FileDoc> {
  const fileId = randomUUID();
  const objectKey = storageKeys.original(fileId);
  // The original is stored from the moment the bytes' type is known, beside the checks of their structure (a
  // video's probe): on a 100 MB video each took about as long as the other. A refusal removes it (below).
  let storing: Promise<void> | undefined;
  const store = (type: string) => {
    storing = file.storedKey
      ? ctx.data.storage.copy(file.storedKey, objectKey, type)
      : ctx.data.storage.putFile(objectKey, file.path, type);
    storing.catch(() => {});
  };
  let kind: FileDoc['kind'];
  let media: MediaInfo | null;
  let probe: VideoProbe | undefined;
  try {
    ({ kind, media, probe } = await kindOf(file.path, file.size, store));
    const slot = await ctx.data.owners.reserveSlot(userId, fileId);
    if (!slot.ok) throw new AppError('FILE_LIMIT_REACHED', { details: { limit: slot.limit } });
  } catch (err) {
    if (storing) await removeOriginal(ctx, storing, objectKey);
    throw err;
  }

  const now = ctx.clock.now();
  const doc: FileDoc = {
    _id: fileId,
    userId,
    title: input.title,
    filename: file.filename,
    kind,
    media,
    ...(probe ? { sourceProbe: probe } : {}),
    sizeBytes: file.size,
    pageCount: 0,
    displayDuration: input.displayDuration,
    displayMode: input.displayMode,
    tags: input.tags,
    isPublished: input.isPublished,
    publishPrice: input.publishPrice ?? null,
    status: 'processing',
    disabledReason: null,
    conversion: { pagesDone: 0, pagesTotal: 0, attempts: 0, finishedAt: null },
    thumbKey: null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    if (!storing) store(originalType(kind, media?.format));
    await storing;
    await ctx.data.files.create(doc);
    if (input.copyrightInfo) {
      await ctx.data.files.setCopyrightInfo(fileId, input.copyrightInfo);
      if (input.isPublished) {
        await ctx.data.files.setDefaultAuthorProfile(userId, input.copyrightInfo);
        await ctx.data.files.recordUserConfirmation(fileId);
      }
    }
  } catch (err) {
    await ctx.data.files.deleteFileDoc(fileId).catch(() => {});
    await ctx.data.files.deleteCopyright(fileId).catch(() => {});
    if (storing) await removeOriginal(ctx, storing, objectKey);
    await ctx.data.owners.releaseSlot(fileId);
    throw err;
  }
  // The file exists now; from here the outbox makes sure the job and the news get out.
  if (ctx.localOriginals) {
    ctx.localOriginals.put(fileId, file.path);
    onTempKept();
  }
  await ctx.outbox.add(
    'files.conversion.requested.v1',
    { fileId, ownerId: userId, objectKey, kind, attempt: 1 },
    { id: jobId(fileId, 1), subjectSuffix: ctx.settings.CONVERSION_QUEUE },
  );
  await auditFileChange(ctx, actor, 'file.created', userId, fileId, null, doc);
  await ctx.outbox.add('files.file.uploaded.v1', {
    fileId,
    ownerId: userId,
    title: doc.title,
    kind,
    sizeBytes: file.size,
    uploadedAt: now.toISOString(),
  });
  return doc;
}
