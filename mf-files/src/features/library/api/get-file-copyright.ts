import type { FileCopyright } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

/** GET /api/files/:id/copyright: the file's info, or the member's default author profile when it has none. */
export const fileCopyrightQuery = (id: string) =>
  queryOptions<FileCopyright>({ queryKey: ['/api/files', id, 'copyright'], staleTime: 0 });
