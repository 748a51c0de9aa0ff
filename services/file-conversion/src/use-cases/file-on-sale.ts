import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { FileDoc } from '../data';
import { type ContentDecision, contentAccess } from '../domain';
import { contentFile } from './reader';

/**
 * A file the member may preview (domain/content-access.ts: on sale, whoever they are), with how long the preview may
 * be kept; otherwise 404 FILE_NOT_FOUND, as for a file that does not exist.
 */
export async function fileOnSale(
  ctx: ServiceContext,
  userId: string,
  fileId: string,
): Promise<{ file: FileDoc; decision: Exclude<ContentDecision, { access: null }> }> {
  const file = await ctx.data.files.findById(fileId);
  const decision = contentAccess({
    reader: { kind: 'preview', userId },
    files: file ? [contentFile(file)] : [],
    licences: [],
    use: 'play',
    now: ctx.clock.ms(),
  });
  if (!file || decision.access !== 'preview') throw new AppError('FILE_NOT_FOUND', { status: 404 });
  return { file, decision };
}
