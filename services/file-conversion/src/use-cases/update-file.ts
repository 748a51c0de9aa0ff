import type { FileSummary, UpdateFileRequest } from '@pagecast/contracts';
import { AppError, type AuditActor } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { FileDoc } from '../data';
import { auditFileChange } from '../events/audit';
import { announceFileChange } from '../events/publish';
import { ownFile } from './readable-file';
import { toFileSummary } from './present';

/**
 * The member edits their file (title, page duration, display mode, tags; what is not given stays) and the change is
 * announced (the snapshot, and the listing again when the file is on sale) and recorded in the audit log.
 */
export async function updateFile(
  ctx: ServiceContext,
  userId: string,
  fileId: string,
  changes: UpdateFileRequest,
  actor: AuditActor,
): Promise<FileSummary> {
  const file = await ownFile(ctx, userId, fileId);
  const repo = ctx.data.files;
  const set: Partial<FileDoc> = {};
  if (changes.title !== undefined) set.title = changes.title;
  if (changes.displayDuration !== undefined) set.displayDuration = changes.displayDuration;
  if (changes.displayMode !== undefined) set.displayMode = changes.displayMode;
  if (changes.tags !== undefined) set.tags = changes.tags;
  // pages first, then the file: the file's new version is what tells readers its pages changed (repo.playerPages)
  if (changes.displayDuration !== undefined) await repo.setPagesDuration(file._id, changes.displayDuration);
  const updated = await repo.updateOwned(file._id, file.userId, set);
  if (!updated) throw new AppError('FILE_NOT_FOUND');
  await auditFileChange(ctx, actor, 'file.updated', updated.userId, updated._id, file, updated);
  await announceFileChange(ctx.outbox, updated);
  return toFileSummary(updated);
}
