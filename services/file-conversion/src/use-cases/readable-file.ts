import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { FileDoc } from '../data';
import { actingUser, type ContentDecision, contentAccess } from '../domain';
import { type Caller, contentFile, decideAfresh, readerOf } from './reader';

export type Granted = Exclude<ContentDecision, { access: null }>;

/**
 * A file the caller may see for this use, and why (domain/content-access.ts): 'library' (the file's own page, its
 * settings) is its owner's; 'play' also a licence holder's and a display's whose screen plays it. Anyone else gets
 * 404 FILE_NOT_FOUND, as for a file that does not exist (a display whose screen is unknown or unpaired: NOT_FOUND).
 */
export async function readableFile(
  ctx: ServiceContext,
  caller: Caller,
  fileId: string,
  use: 'play' | 'library',
): Promise<{ file: FileDoc; decision: Granted }> {
  return decideReadable(ctx, caller, await ctx.data.files.findById(fileId), use);
}

/** As readableFile, with the file already read (a display's reads take it from memory: device-reads.ts). */
export async function decideReadable(
  ctx: ServiceContext,
  caller: Caller,
  file: FileDoc | null,
  use: 'play' | 'library',
): Promise<{ file: FileDoc; decision: Granted }> {
  const decision = await decideAfresh(async (fresh) => {
    const { reader, remembered } = await readerOf(ctx, caller, fresh);
    const userId = actingUser(reader);
    const now = ctx.clock.now();
    const licences =
      file && file.userId !== userId && use === 'play'
        ? await ctx.data.files.activeLicencesFor(userId, [file._id], now)
        : [];
    const files = file ? [contentFile(file)] : [];
    return { decision: contentAccess({ reader, files, licences, use, now: now.getTime() }), remembered };
  });
  if (decision.access === null) throw new AppError(decision.refusal === 'screen' ? 'NOT_FOUND' : 'FILE_NOT_FOUND');
  if (!file) throw new AppError('FILE_NOT_FOUND');
  return { file, decision };
}

/** The member's own file, or 404 FILE_NOT_FOUND (another member's id gets the same answer as a missing one). */
export async function ownFile(ctx: ServiceContext, userId: string, fileId: string): Promise<FileDoc> {
  return (await readableFile(ctx, { kind: 'member', userId }, fileId, 'library')).file;
}
