import type { AccessibleFile } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import type { Caller } from './reader';
import { readableFile } from './readable-file';
import { toAccessibleFile } from './present';

/** A file as the caller may see it: their own, or one they play under a licence (with its end). */
export async function getFile(
  ctx: ServiceContext,
  caller: Caller,
  fileId: string,
  use: 'play' | 'library',
): Promise<AccessibleFile> {
  const { file, decision } = await readableFile(ctx, caller, fileId, use);
  return toAccessibleFile(file, decision.access === 'owner' ? 'owner' : 'purchased', decision.licenceExpiresAt);
}
