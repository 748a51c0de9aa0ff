import type { ScreenList } from '@pagecast/contracts';
import { throwIfResNotOk } from '@pagecast/ui';
import { queryOptions } from '@tanstack/react-query';

export const screensKey = ['/api/screens'] as const;

/** GET /api/screens: the member's screens with their status; polled so online/offline follows on its own. */
export const screensQuery = () =>
  queryOptions<ScreenList>({
    queryKey: screensKey,
    queryFn: async ({ signal }) => {
      const res = await fetch('/api/screens', { credentials: 'include', signal });
      await throwIfResNotOk(res);
      return (await res.json()) as ScreenList;
    },
    refetchInterval: 5000,
  });
