import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { hashFromMediaKey, storageKeys } from '../domain';
import type { StoredImage } from './read-image';

/**
 * The bytes of a page image for the gateway, which has decided who may see it (`mediaAccess`) and serves them from
 * its own memory: no second decision here. Not an image key, or no such image: 404 NOT_FOUND.
 */
export async function imageBytes(ctx: ServiceContext, key: string): Promise<NonNullable<StoredImage>> {
  const hash = hashFromMediaKey(key);
  const object = hash ? await ctx.data.storage.get(storageKeys.page(hash)) : undefined;
  if (!object) throw new AppError('NOT_FOUND');
  return object;
}
