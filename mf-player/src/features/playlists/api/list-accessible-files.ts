import type { AccessibleFileList } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

export const accessibleFilesKey = ['/api/files/accessible'] as const;

/** GET /api/files/accessible: own files and bought ones within their licence, for playlists. */
export const accessibleFilesQuery = queryOptions<AccessibleFileList>({ queryKey: accessibleFilesKey });
