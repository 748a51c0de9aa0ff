import type { AccessibleFileList } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

// One query for the member's own and bought files, whoever lists them (the playlist editor, the Screens page's
// titles and file picker): one key, so a file uploaded or bought shows in both.

export const accessibleFilesKey = ['/api/files/accessible'] as const;

/** GET /api/files/accessible: own files and bought ones within their licence, for playlists. */
export const accessibleFilesQuery = queryOptions<AccessibleFileList>({ queryKey: accessibleFilesKey });
