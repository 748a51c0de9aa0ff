import { AppError, type AuditActor } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { storageKeys } from '../domain';
import { auditFileChange } from '../events/audit';
import { removeUnusedObjects } from '../workers/convert-job';

/**
 * A member deletes their own file (another member's id is not found, as a missing one). The document goes first:
 * from then on nobody can read the file and a running conversion stops at its next page. Then what hangs on it:
 * playlist items, pages and the images no other file shows, the original, copyright records, the tier slot; which
 * files show its images is read afresh from then on, and the deletion is announced (marketplace, licences, screens).
 */
export async function deleteFile(
  ctx: ServiceContext,
  userId: string,
  fileId: string,
  actor: AuditActor,
): Promise<void> {
  const repo = ctx.data.files;
  const file = await repo.findOwned(fileId, userId);
  if (!file || !(await repo.deleteFileDoc(file._id))) throw new AppError('FILE_NOT_FOUND');
  // a display served by this instance stops reading it now, not when the event comes back
  ctx.data.screenViews.forgetFile(file._id);
  // recorded as soon as the document is gone: that is the change; what follows is clean-up
  await auditFileChange(ctx, actor, 'file.deleted', file.userId, file._id, file, null);
  await repo.deletePlaylistItemsOf(file._id, ctx.outbox);
  const keys = await repo.deletePages(file._id);
  await removeUnusedObjects(ctx.data, keys);
  await ctx.data.storage.remove([
    storageKeys.original(file._id),
    storageKeys.video(file._id),
    storageKeys.videoPreview(file._id),
  ]);
  await repo.deleteCopyright(file._id);
  await ctx.data.owners.releaseSlot(file._id);
  ctx.data.imageFiles.forget(keys);
  await ctx.outbox.add('files.file.deleted.v1', {
    fileId: file._id,
    ownerId: file.userId,
    deletedAt: ctx.clock.now().toISOString(),
  });
}
