import type { FilePage } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import type { Caller } from './reader';
import { readableFile } from './readable-file';
import { toFilePage } from './present';

/** The pages of a file the caller may see, in order, as the player lists them. */
export async function filePages(
  ctx: ServiceContext,
  caller: Caller,
  fileId: string,
  use: 'play' | 'library',
): Promise<FilePage[]> {
  const { file } = await readableFile(ctx, caller, fileId, use);
  return (await ctx.data.files.playerPages(file)).map((p) => toFilePage(p, file));
}
