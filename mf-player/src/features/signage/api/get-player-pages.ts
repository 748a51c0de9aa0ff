import type { FilePage } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';
import { fetchJsonWithEtag } from '../../../lib/conditional-fetch';

export const playerPagesPath = (fileId: string) => `/api/files/${encodeURIComponent(fileId)}/pages?signage_mode=true`;

/** GET /api/files/:id/pages?signage_mode=true: the pages in order with their immutable image paths, with ETag. */
export const playerPagesQuery = (fileId: string) =>
  queryOptions<FilePage[]>({
    queryKey: [playerPagesPath(fileId)],
    queryFn: ({ signal }) => fetchJsonWithEtag<FilePage[]>(playerPagesPath(fileId), signal),
    // offline, the request still goes out: the service worker answers from its cache
    networkMode: 'always',
  });
