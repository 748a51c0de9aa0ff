import {
  FileIdParams,
  type FilePreview,
  PreviewImageParams,
  PreviewImageQuery,
  previewImagePath,
} from '@pagecast/contracts';
import { AppError, parseWith, requireIdentity } from '@pagecast/service-kit';
import { Router } from 'express';
import { renderPreview } from '../data';
import { isOnSale, storageKeys } from '../domain';
import type { ServiceContext } from '../context';

const PREVIEW_CACHE_CONTROL = 'private, max-age=300';

/**
 * Previews of a file on sale, for any member: page images made small (cards) or small and watermarked (the
 * preview before buying). They are separate objects under previews/, so they never open the full page images.
 * Rendered once per page and size, then kept in storage.
 */
export function previewsRouter(ctx: ServiceContext): Router {
  const router = Router();
  const repo = ctx.data.files;
  const notFound = () => new AppError('FILE_NOT_FOUND', { status: 404 });

  const fileOnSale = async (id: string) => {
    const file = await repo.findById(id);
    if (!file || !isOnSale(file)) throw notFound();
    return file;
  };

  router.get('/api/files/:id/preview', async (req, res) => {
    requireIdentity(req);
    const { id } = parseWith(FileIdParams, req.params);
    const file = await fileOnSale(id);
    const pages = await repo.listPages(file._id);
    const body: FilePreview = {
      fileId: file._id,
      pageCount: pages.length,
      pages: pages.map((p) => ({
        pageNumber: p.pageNumber,
        url: previewImagePath(file._id, p.pageNumber, 'page'),
        thumbUrl: previewImagePath(file._id, p.pageNumber, 'thumb'),
      })),
    };
    res.json(body);
  });

  router.get('/api/files/:id/preview/:page', async (req, res) => {
    requireIdentity(req);
    const { id, page } = parseWith(PreviewImageParams, req.params);
    const { size } = parseWith(PreviewImageQuery, req.query);
    const file = await fileOnSale(id);
    const doc = (await repo.listPages(file._id)).find((p) => p.pageNumber === page);
    if (!doc) throw notFound();
    const key = storageKeys.preview(doc.imageKey, size);
    let bytes = await ctx.data.storage.getBuffer(key);
    if (!bytes) {
      const source = await ctx.data.storage.getBuffer(storageKeys.page(doc.imageKey));
      if (!source) throw notFound();
      bytes = await renderPreview(source, size);
      await ctx.data.storage.putBuffer(key, bytes, 'image/webp');
    }
    res.setHeader('Content-Type', 'image/webp');
    res.setHeader('Cache-Control', PREVIEW_CACHE_CONTROL);
    res.end(bytes);
  });

  return router;
}
