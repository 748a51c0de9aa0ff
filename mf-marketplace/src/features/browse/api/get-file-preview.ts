import type { FilePreview } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

/** GET /api/files/:id/preview: every page of a listed file as a low-resolution, watermarked image. */
export const filePreviewQuery = (fileId: string) =>
  queryOptions<FilePreview>({ queryKey: ['/api/files', fileId, 'preview'] });
