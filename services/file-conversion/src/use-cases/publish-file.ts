import type { FileSummary, PublishSettingsRequest } from '@pagecast/contracts';
import { AppError, type AuditActor } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { canPublish } from '../domain';
import { auditFileChange } from '../events/audit';
import { filePublishedData, fileUpdatedData } from '../events/publish';
import { ownFile } from './readable-file';
import { toFileSummary } from './present';

/**
 * The member publishes their converted file at a price, or takes it off sale: the copyright they state is recorded
 * (and becomes their default author profile when they sell), their confirmation of the rights is recorded, and the
 * change is announced (the snapshot, then the listing or its withdrawal, for the marketplace).
 */
export async function publishFile(
  ctx: ServiceContext,
  userId: string,
  fileId: string,
  input: PublishSettingsRequest,
  actor: AuditActor,
): Promise<FileSummary> {
  const file = await ownFile(ctx, userId, fileId);
  const repo = ctx.data.files;
  if (input.isPublished && !canPublish(file.status)) throw new AppError('FILE_NOT_READY');
  // Selling needs an author name (spec point 5; refused as AUTHOR_NAME_REQUIRED, its words in the catalogues), given
  // now or recorded before; the buyer is shown it. Checked before anything is written, so a refusal changes nothing.
  const stated = await repo.getCopyrightInfo(file._id);
  const copyright = input.copyrightInfo ?? stated;
  if (input.isPublished && !copyright?.authorName?.trim()) throw new AppError('AUTHOR_NAME_REQUIRED');
  if (input.copyrightInfo) {
    await repo.setCopyrightInfo(file._id, input.copyrightInfo);
    if (input.isPublished) await repo.setDefaultAuthorProfile(file.userId, input.copyrightInfo);
  }
  if (input.isPublished) await repo.recordUserConfirmation(file._id);
  const updated = await repo.updateOwned(file._id, file.userId, {
    isPublished: input.isPublished,
    publishPrice: input.isPublished ? (input.publishPrice ?? null) : (input.publishPrice ?? file.publishPrice),
  });
  if (!updated) throw new AppError('FILE_NOT_FOUND');
  const action = updated.isPublished ? 'file.published' : 'file.unpublished';
  // the stated author, company and notice are part of the publish settings: the entry shows them changed too
  await auditFileChange(ctx, actor, action, updated.userId, updated._id, file, updated, {
    before: { copyright: copyrightSnapshot(stated) },
    after: { copyright: copyrightSnapshot(input.copyrightInfo ?? stated) },
  });
  await ctx.outbox.add('files.file.updated.v1', fileUpdatedData(updated));
  const listing = filePublishedData(updated, copyright ?? undefined);
  if (listing) await ctx.outbox.add('files.file.published.v1', listing);
  else if (file.isPublished && !updated.isPublished) {
    await ctx.outbox.add('files.file.unpublished.v1', {
      fileId: file._id,
      ownerId: file.userId,
      updatedAt: updated.updatedAt.toISOString(),
    });
  }
  return toFileSummary(updated);
}

/** The stated copyright as the audit log keeps it (null: none stated). */
function copyrightSnapshot(
  c: { authorName?: string | null; companyName?: string | null; copyrightText?: string | null } | null | undefined,
) {
  if (!c) return null;
  return {
    authorName: c.authorName ?? null,
    companyName: c.companyName ?? null,
    copyrightText: c.copyrightText ?? null,
  };
}
