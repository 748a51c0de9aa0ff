import type { RefusedPlays } from '@pagecast/contracts';
import { throwIfResNotOk } from '@pagecast/ui';
import { queryOptions } from '@tanstack/react-query';
import { workspaceHeadersOf } from '../../../lib/events-since';

export const refusedPlaysPath = (from: string, to: string) => `/api/screens/plays/refused?from=${from}&to=${to}`;

/** GET /api/screens/plays/refused: the owner's records that did not count, per day, screen and reason. */
export const refusedPlaysQuery = (from: string, to: string) =>
  queryOptions<RefusedPlays>({
    queryKey: [refusedPlaysPath(from, to)],
    queryFn: async ({ signal }) => {
      const res = await fetch(refusedPlaysPath(from, to), {
        credentials: 'include',
        signal,
        headers: workspaceHeadersOf(),
      });
      await throwIfResNotOk(res);
      return (await res.json()) as RefusedPlays;
    },
    refetchInterval: 10_000,
  });
