import type { SoldPlays } from '@pagecast/contracts';
import { throwIfResNotOk } from '@pagecast/ui';
import { queryOptions } from '@tanstack/react-query';
import { workspaceHeadersOf } from '../../../lib/events-since';

export const soldPlaysPath = (from: string, to: string) => `/api/screens/plays/sold?from=${from}&to=${to}`;

/** GET /api/screens/plays/sold: plays per day of the files the member sold, on buyers' screens (counts only). */
export const soldPlaysQuery = (from: string, to: string) =>
  queryOptions<SoldPlays>({
    queryKey: [soldPlaysPath(from, to)],
    queryFn: async ({ signal }) => {
      const res = await fetch(soldPlaysPath(from, to), {
        credentials: 'include',
        signal,
        headers: workspaceHeadersOf(),
      });
      await throwIfResNotOk(res);
      return (await res.json()) as SoldPlays;
    },
  });
