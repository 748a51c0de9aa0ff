import type { FilePage, PlaylistItem } from '@pagecast/contracts';
import { HttpError } from '@pagecast/ui';
import { fetchJsonWithEtag, forgetRead, heldRead, rememberRead } from '../../../lib/conditional-fetch';
import { playlistItemsPath } from '../../../lib/playlist-items';
import { dropGivenRead, keepGivenRead } from '../../../sw/register';
import type { DeviceLink, DeviceReadType } from '../model/device-link';

export const displayPagesPath = (fileId: string) => `/api/files/${encodeURIComponent(fileId)}/pages?signage_mode=true`;

/** The items of a playlist assigned to this screen (the device identity reads it as the screen's owner). */
export const getDisplayPlaylist = (id: string) => fetchJsonWithEtag<PlaylistItem[]>(playlistItemsPath(id));
/** The pages of a file this screen plays, with their immutable image paths. */
export const getDisplayPages = (fileId: string) => fetchJsonWithEtag<FilePage[]>(displayPagesPath(fileId));

/** The HTTP path each socket read stands for: its answer is held (ETag, data, worker's copy) under this URL. */
export const readPathOf = (type: DeviceReadType, id: string) =>
  type === 'playlist' ? playlistItemsPath(id) : displayPagesPath(id);

/**
 * A content read over the display's socket, answered as the HTTP read of the same path would be: the ETag held for
 * that path goes with it (one store for both paths, so an answer read over either makes the other's next read a
 * 304), a 304 gives the data held, a 200 is held and kept for a reload during a network cut as the worker keeps an
 * HTTP read, any other status is the HTTP path's HttpError (a 404 is "gone" to the keeper, a 503 is tried again).
 * LinkOffline when the socket is not live, dropped or did not answer.
 */
export async function readOverLink<T>(link: Pick<DeviceLink, 'read'>, type: DeviceReadType, id: string): Promise<T> {
  const url = readPathOf(type, id);
  // taken when the read is sent, as fetchJsonWithEtag's `previous`: a 304 says this very ETag is current, so its data
  // answers even if a newer read or the store's eviction replaced it meanwhile
  const held = heldRead(url);
  const reply = await link.read(type, held ? { id, etag: held.etag } : { id });
  if (reply.status === 304 && held) return held.data as T;
  if (reply.status >= 200 && reply.status < 300) {
    const data = reply.body as T;
    if (reply.etag) {
      rememberRead(url, reply.etag, data);
      // as the worker keeps an HTTP read's 200 (sw.ts, networkFirst); a failure to keep it changes nothing here
      void keepGivenRead(url, JSON.stringify(data), reply.etag).catch(() => undefined);
    } else forgetRead(url);
    return data;
  }
  // "not yours (any more)": the kept copy must not be replayed at a reload, as the worker drops it for an HTTP read
  if (reply.status === 401 || reply.status === 403 || reply.status === 404) {
    void dropGivenRead(url).catch(() => undefined);
  }
  // (a 304 to a read that held nothing answers nothing: an error, as over HTTP)
  throw new HttpError(reply.status, '', JSON.stringify(reply.body ?? null));
}
