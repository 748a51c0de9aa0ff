// The display's content reads for one change. After a change (an edit, a takeover, its boot) the slides of what
// plays and the offline keeper's round both read the playlist and the pages of each of its files, at the same
// moment: through one set of reads they share each request (in flight or answered), so the change costs the server
// one read of each path, not two. A new set per change: a read never answers for a change heard after it started.
import { getDisplayPages, getDisplayPlaylist } from '../api/get-content';
import type { ContentReads } from './keep-offline';

export function contentReads(read: ContentReads = { playlist: getDisplayPlaylist, pages: getDisplayPages }) {
  const held = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, start: () => Promise<T>): Promise<T> => {
    const had = held.get(key) as Promise<T> | undefined;
    if (had) return had;
    const p = start();
    held.set(key, p);
    // a failed read is not kept: the next caller of this change asks again
    p.catch(() => {
      if (held.get(key) === p) held.delete(key);
    });
    return p;
  };
  return {
    playlist: (id: string) => once(`pl:${id}`, () => read.playlist(id)),
    pages: (fileId: string) => once(`pages:${fileId}`, () => read.pages(fileId)),
  } satisfies ContentReads;
}
