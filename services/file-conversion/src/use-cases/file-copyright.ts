import type { FileCopyright } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { ownFile } from './readable-file';

/** The copyright recorded for the member's file, else their default author profile (which the publish form offers). */
export async function fileCopyright(ctx: ServiceContext, userId: string, fileId: string): Promise<FileCopyright> {
  const file = await ownFile(ctx, userId, fileId);
  const repo = ctx.data.files;
  const source = (await repo.getCopyrightInfo(file._id)) ?? (await repo.defaultAuthorProfile(file.userId));
  return {
    authorName: source?.authorName ?? null,
    companyName: source?.companyName ?? null,
    copyrightText: source?.copyrightText ?? null,
  };
}
