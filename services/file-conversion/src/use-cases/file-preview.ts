import { type FilePreview, previewImagePath, videoPreviewPath } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { fileOnSale } from './file-on-sale';

/**
 * The preview of a file on sale: its page count and each page's preview and thumbnail URLs; a video's watermarked
 * clip too, with its poster's preview as the clip's poster.
 */
export async function filePreview(ctx: ServiceContext, userId: string, fileId: string): Promise<FilePreview> {
  const { file } = await fileOnSale(ctx, userId, fileId);
  const pages = await ctx.data.files.listPages(file._id);
  return {
    fileId: file._id,
    pageCount: pages.length,
    pages: pages.map((p) => ({
      pageNumber: p.pageNumber,
      url: previewImagePath(file._id, p.pageNumber, 'page'),
      thumbUrl: previewImagePath(file._id, p.pageNumber, 'thumb'),
    })),
    ...(file.kind === 'video' && file.video?.preview
      ? {
          video: {
            url: videoPreviewPath(file._id),
            posterUrl: previewImagePath(file._id, 1, 'page'),
            durationMs: file.video.preview.durationMs,
            width: file.video.preview.width,
            height: file.video.preview.height,
          },
        }
      : {}),
  };
}
