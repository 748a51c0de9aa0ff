// The gateway's live stream (GET /api/events?file=<id>…): a page converted or a file changed arrives as an event
// with ids only, and the caller reads again. Polling (the queries' refetchInterval) stays as the fallback.
import { subjects } from '@pagecast/contracts';
import { withReadSince, withWorkspace } from '@pagecast/ui';
import { useEffect, useRef } from 'react';

const WATCHED = [subjects.pageReady, subjects.fileUpdated, subjects.fileDeleted, 'resync'];

export function useWatchFiles(ids: readonly string[], onChange: (fileId: string | undefined) => void): void {
  const latest = useRef(onChange);
  latest.current = onChange;
  const key = [...ids].sort().join(',');

  useEffect(() => {
    if (!key || typeof EventSource === 'undefined') return;
    const query = key
      .split(',')
      .slice(0, 50)
      .map((id) => `file=${encodeURIComponent(id)}`)
      .join('&');
    // since: the page's first read (a host whose @pagecast/ui predates it has none: the stream goes without)
    const url = `/api/events?${query}`;
    const since = typeof withReadSince === 'function' ? withReadSince(url) : url;
    // the workspace the page acts in (a host whose @pagecast/ui predates it: the person's own)
    const source = new EventSource(typeof withWorkspace === 'function' ? withWorkspace(since) : since, {
      withCredentials: true,
    });
    const handle = (e: MessageEvent<string>) => {
      let fileId: string | undefined;
      try {
        fileId = (JSON.parse(e.data) as { data?: { fileId?: string } }).data?.fileId;
      } catch {
        fileId = undefined;
      }
      latest.current(fileId);
    };
    for (const type of WATCHED) source.addEventListener(type, handle);
    return () => source.close();
  }, [key]);
}
