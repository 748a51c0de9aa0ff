import type { PlayerFile } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';
import { fetchJsonWithEtag } from '../../../lib/conditional-fetch';

export const playerFilePath = (fileId: string) => `/api/files/${encodeURIComponent(fileId)}?signage_mode=true`;

/** GET /api/files/:id?signage_mode=true (owner or licence holder; 401 anonymous, 403/404 otherwise), with ETag. */
export const playerFileQuery = (fileId: string) =>
  queryOptions<PlayerFile>({
    queryKey: [playerFilePath(fileId)],
    queryFn: ({ signal }) => fetchJsonWithEtag<PlayerFile>(playerFilePath(fileId), signal),
    // offline, the request still goes out: the service worker answers from its cache
    networkMode: 'always',
  });
