import type { PlayReport } from '@pagecast/contracts';
import { throwIfResNotOk } from '@pagecast/ui';
import { queryOptions } from '@tanstack/react-query';
import { workspaceHeadersOf } from '../../../lib/events-since';

export const playReportPath = (from: string, to: string, format: 'json' | 'csv' = 'json') =>
  `/api/screens/plays?from=${from}&to=${to}${format === 'csv' ? '&format=csv' : ''}`;

/** GET /api/screens/plays: plays per day, screen and file (the CSV is the same path with format=csv). */
export const playReportQuery = (from: string, to: string) =>
  queryOptions<PlayReport>({
    queryKey: [playReportPath(from, to)],
    queryFn: async ({ signal }) => {
      const res = await fetch(playReportPath(from, to), {
        credentials: 'include',
        signal,
        headers: workspaceHeadersOf(),
      });
      await throwIfResNotOk(res);
      return (await res.json()) as PlayReport;
    },
    refetchInterval: 10_000,
  });
