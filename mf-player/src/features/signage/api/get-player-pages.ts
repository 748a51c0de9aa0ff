import type { FilePage } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';
import { signagePagesPath } from '@pagecast/contracts';
import { fetchJsonWithEtag } from '../../../lib/conditional-fetch';

// the shell's entry may have started this read already (contracts' signage-paths.ts): same path, same query key
export const playerPagesPath = signagePagesPath;

/** GET /api/files/:id/pages?signage_mode=true: the pages in order with their immutable image paths, with ETag. */
export const playerPagesQuery = (fileId: string) =>
  queryOptions<FilePage[]>({
    queryKey: [playerPagesPath(fileId)],
    queryFn: ({ signal }) => fetchJsonWithEtag<FilePage[]>(playerPagesPath(fileId), signal),
    // offline, the request still goes out: the service worker answers from its cache
    networkMode: 'always',
  });
