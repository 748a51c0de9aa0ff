import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, isMediaKind, type UploadFileFields, uploadKindOf } from '@pagecast/contracts';
import { AppError, type AuditActor } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { FileDoc } from '../data';
import { uploadFile } from './upload-file';

export interface ResumableUploadInput {
  /** the key of the upload in the bucket (finished: the whole object) */
  key: string;
  filename: string;
  size: number;
  fields: UploadFileFields;
}

/**
 * The rules a resumable upload meets before any byte is stored: its size (2 GiB; a document, by its name, 10 MB) and
 * a free slot of the member's plan. The bytes decide again once they are all there (finishResumableUpload).
 */
export async function startResumableUpload(
  ctx: ServiceContext,
  userId: string,
  input: Pick<ResumableUploadInput, 'filename' | 'size'>,
): Promise<void> {
  if (input.size > constants.upload.maxMediaBytes) throw new AppError('MEDIA_TOO_LARGE');
  if (!isMediaKind(uploadKindOf(input.filename)) && input.size > constants.upload.maxBytes) {
    throw new AppError('FILE_TOO_LARGE');
  }
  const slot = await ctx.data.owners.hasFreeSlot(userId);
  if (!slot.ok) throw new AppError('FILE_LIMIT_REACHED', { details: { limit: slot.limit } });
}

/**
 * A finished resumable upload becomes a file through the multipart path's own use case: the bytes as a temp file
 * (this instance's copy, written as the chunks came through it, or, when some went to another instance, the object
 * read back whole), where the type is decided from the bytes, a video probed, and the conversion reads it when this
 * process converts; the original is copied within the bucket, and the upload's object is removed whatever the
 * outcome, so a refusal leaves nothing stored.
 */
export async function finishResumableUpload(
  ctx: ServiceContext,
  userId: string,
  input: ResumableUploadInput,
  actor: AuditActor,
): Promise<FileDoc> {
  const dir = join(tmpdir(), 'pagecast-uploads');
  await mkdir(dir, { recursive: true });
  let path = join(dir, randomUUID());
  let kept = false;
  try {
    const local = await ctx.data.resumable.spool.take(input.key, input.size);
    if (local) path = local;
    else await ctx.data.storage.downloadTo(input.key, path);
    ctx.logger.debug({ key: input.key, readBack: !local }, 'finished upload on disk');
    return await uploadFile(
      ctx,
      userId,
      input.fields,
      { path, filename: input.filename, size: input.size, storedKey: input.key },
      () => {
        kept = true;
      },
      actor,
    );
  } finally {
    if (!kept) await rm(path, { force: true });
    await ctx.data.resumable.discard(input.key).catch((err: unknown) => {
      // the expiry sweep removes what is left
      ctx.logger.warn({ err, key: input.key }, 'finished upload not removed');
    });
  }
}

/** The sweep of unfinished uploads older than the expiry (their parts and records go) and of ended upload locks. */
export async function expireResumableUploads(ctx: ServiceContext): Promise<number> {
  const removed = await ctx.data.resumable.deleteExpired();
  await ctx.data.uploadLocks.sweep();
  return removed;
}
