// The display's content reads for one change. After a change (an edit, a takeover, its boot) the slides of what
// plays and the offline keeper's round both read the playlist and the pages of each of its files, at the same
// moment: through one set of reads they share each request (in flight or answered), so the change costs the server
// one read of each path, not two. A new set per change: a read never answers for a change heard after it started.
//
// Over the display's socket while it is live (waiting a moment for one still opening), else over HTTP, as before: a
// display behind a proxy that refuses WebSockets (or with none) reads over HTTP.
import { getDisplayPages, getDisplayPlaylist, readOverLink } from '../api/get-content';
import { type DeviceLink, type DeviceReadType, LinkOffline, SETTLE_MS } from './device-link';
import type { ContentReads } from './keep-offline';

/** What the reads need of the display's socket. */
export type ContentLink = Pick<DeviceLink, 'state' | 'settled' | 'read'>;

const httpReads: ContentReads = { playlist: getDisplayPlaylist, pages: getDisplayPages };

/** One display's reads, not shared: over `link` while it is live, else HTTP (no link: HTTP). */
export function displayReads(link?: ContentLink | null): ContentReads {
  if (!link) return httpReads;
  const via =
    <T>(type: DeviceReadType, http: (id: string) => Promise<T>) =>
    async (id: string): Promise<T> => {
      await link.settled(SETTLE_MS);
      if (link.state === 'live') {
        try {
          return await readOverLink<T>(link, type, id);
        } catch (err) {
          if (!(err instanceof LinkOffline)) throw err;
          // Dropped (or unanswered) mid-read: over HTTP now, not failed for a retry. A failure is not asked again
          // where it counts: the slides would play their last good answer (the edit unseen until the next change) and
          // the keeper's round would stay incomplete for KEEP_EVERY_MS; and it costs one HTTP read per display caught
          // mid-read, where HTTP used to carry every read.
        }
      }
      return http(id);
    };
  return { playlist: via('playlist', getDisplayPlaylist), pages: via('pages', getDisplayPages) };
}

export function contentReads(read: ContentReads = httpReads) {
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
