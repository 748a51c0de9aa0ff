// The entry's early reads (early-requests.ts) into the query cache, under the keys their readers use.
import { currentUserQueryKey, noteServerRead, throwIfResNotOk } from '@pagecast/ui';
import type { QueryClient } from '@tanstack/react-query';
import { earlyRequests } from './early-requests';

export function seedEarlyRequests(queryClient: QueryClient): void {
  for (const { path, response } of earlyRequests()) {
    const isUser = path === currentUserQueryKey[0];
    void queryClient.prefetchQuery({
      queryKey: [path],
      queryFn: async () => {
        const res = (await response).clone();
        noteServerRead(res); // the page's first reads: a player's live stream says it read after this (since)
        if (isUser && res.status === 401) return null; // as the user's own reader: nobody is signed in
        await throwIfResNotOk(res); // a failure stays the reader's to handle: it asks again when it mounts
        return res.json();
      },
      retry: false,
      // a screen offline still reads (its service worker answers), as the player's own reads do
      networkMode: 'always',
    });
  }
}
