import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { renderPreview } from '../data';
import { storageKeys } from '../domain';
import { fileOnSale } from './file-on-sale';

/**
 * A page of a file on sale made small ('thumb': a card) or small and watermarked ('page': the preview before buying),
 * never the page image itself. Rendered once per page and size, then kept in storage (the page is content-addressed,
 * so its preview never changes). Also how long the browser may keep it.
 */
export async function previewImage(
  ctx: ServiceContext,
  userId: string,
  fileId: string,
  page: number,
  size: 'thumb' | 'page',
): Promise<{ bytes: Buffer; keepMs: number }> {
  const { file, decision } = await fileOnSale(ctx, userId, fileId);
  const doc = (await ctx.data.files.listPages(file._id)).find((p) => p.pageNumber === page);
  if (!doc) throw new AppError('FILE_NOT_FOUND', { status: 404 });
  const key = storageKeys.preview(doc.imageKey, size);
  let bytes = await ctx.data.storage.getBuffer(key);
  if (!bytes) {
    const source = await ctx.data.storage.getBuffer(storageKeys.page(doc.imageKey));
    if (!source) throw new AppError('FILE_NOT_FOUND', { status: 404 });
    bytes = await renderPreview(source, size);
    await ctx.data.storage.putBuffer(key, bytes, 'image/webp');
  }
  return { bytes, keepMs: decision.keepMs };
}
