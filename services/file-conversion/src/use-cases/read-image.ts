import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { Storage } from '../data';
import { hashFromMediaKey, storageKeys } from '../domain';
import { imageAccess } from './image-access';
import type { Caller } from './reader';

export type StoredImage = Awaited<ReturnType<Storage['get']>>;

/**
 * A page image for a caller who may see it (domain/content-access.ts), decided once: why ('owner' or 'licence', which
 * sets how the browser may keep it) and its bytes, opened only when asked (a revalidation needs none). Refused, or
 * not an image key: 404 NOT_FOUND, as for an image that does not exist.
 */
export async function readImage(
  ctx: ServiceContext,
  caller: Caller,
  key: string,
): Promise<{ access: 'owner' | 'licence'; open(): Promise<StoredImage> }> {
  const hash = hashFromMediaKey(key);
  if (!hash) throw new AppError('NOT_FOUND');
  const { access } = await imageAccess(ctx, caller, hash);
  if (access !== 'owner' && access !== 'licence') throw new AppError('NOT_FOUND');
  return { access, open: () => ctx.data.storage.get(storageKeys.page(hash)) };
}
