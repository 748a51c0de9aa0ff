import type { PlayerFile } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

/** GET /api/files/:id?signage_mode=true through the default fetcher (the key is the path). */
export const playerFileQuery = (fileId: string) =>
  queryOptions<PlayerFile | null>({
    queryKey: [`/api/files/${encodeURIComponent(fileId)}?signage_mode=true`],
  });
