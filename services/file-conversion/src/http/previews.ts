import { FileIdParams, PreviewImageParams, PreviewImageQuery } from '@pagecast/contracts';
import { parseWith, requireActor } from '@pagecast/service-kit';
import { Router } from 'express';
import type { ServiceContext } from '../context';
import { filePreview } from '../use-cases/file-preview';
import { previewImage } from '../use-cases/preview-image';

/**
 * Previews of a file on sale, for any member: page images made small (cards) or small and watermarked (the
 * preview before buying). They are separate objects under previews/, so they never open the full page images.
 */
export function previewsRouter(ctx: ServiceContext): Router {
  const router = Router();

  router.get('/api/files/:id/preview', async (req, res) => {
    const { workspaceId } = requireActor(req, 'marketplace.read');
    const { id } = parseWith(FileIdParams, req.params);
    res.json(await filePreview(ctx, workspaceId, id));
  });

  router.get('/api/files/:id/preview/:page', async (req, res) => {
    const { workspaceId } = requireActor(req, 'marketplace.read');
    const { id, page } = parseWith(PreviewImageParams, req.params);
    const { size } = parseWith(PreviewImageQuery, req.query);
    const { bytes, keepMs } = await previewImage(ctx, workspaceId, id, page, size);
    res.setHeader('Content-Type', 'image/webp');
    res.setHeader('Cache-Control', `private, max-age=${Math.floor(keepMs / 1000)}`);
    res.end(bytes);
  });

  return router;
}
