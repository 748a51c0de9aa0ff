import type { PlayerFile } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';
import { signageFilePath } from '@pagecast/contracts';
import { fetchJsonWithEtag } from '../../../lib/conditional-fetch';

// the shell's entry may have started this read already (contracts' signage-paths.ts): same path, same query key
export const playerFilePath = signageFilePath;

/** GET /api/files/:id?signage_mode=true (owner or licence holder; 401 anonymous, 403/404 otherwise), with ETag. */
export const playerFileQuery = (fileId: string) =>
  queryOptions<PlayerFile>({
    queryKey: [playerFilePath(fileId)],
    queryFn: ({ signal }) => fetchJsonWithEtag<PlayerFile>(playerFilePath(fileId), signal),
    // offline, the request still goes out: the service worker answers from its cache
    networkMode: 'always',
  });
