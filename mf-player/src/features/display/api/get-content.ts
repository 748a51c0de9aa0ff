import type { FilePage, PlaylistItem } from '@pagecast/contracts';
import { fetchJsonWithEtag } from '../../../lib/conditional-fetch';
import { playlistItemsPath } from '../../../lib/playlist-items';

export const displayPagesPath = (fileId: string) => `/api/files/${encodeURIComponent(fileId)}/pages?signage_mode=true`;

/** The items of a playlist assigned to this screen (the device identity reads it as the screen's owner). */
export const getDisplayPlaylist = (id: string) => fetchJsonWithEtag<PlaylistItem[]>(playlistItemsPath(id));
/** The pages of a file this screen plays, with their immutable image paths. */
export const getDisplayPages = (fileId: string) => fetchJsonWithEtag<FilePage[]>(displayPagesPath(fileId));
