import type { ScreenList } from '@pagecast/contracts';
import { throwIfResNotOk } from '@pagecast/ui';
import { queryOptions } from '@tanstack/react-query';
import { workspaceHeadersOf } from '../../../lib/events-since';

export const screensKey = ['/api/screens'] as const;

/** GET /api/screens: the member's screens with their status (read again when one reports, see use-screens-live). */
export const screensQuery = () =>
  queryOptions<ScreenList>({
    queryKey: screensKey,
    queryFn: async ({ signal }) => {
      const res = await fetch('/api/screens', { credentials: 'include', signal, headers: workspaceHeadersOf() });
      await throwIfResNotOk(res);
      return (await res.json()) as ScreenList;
    },
    // status reports arrive live (use-screens-live.ts); this read is the fallback when the stream is down
    refetchInterval: 30_000,
  });
