import type { FileList } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';

export const filesQueryKey = ['/api/files'] as const;

/** While a file converts, the list is read again (the live stream, when open, only makes it sooner). */
export const CONVERSION_POLL_MS = 2000;

/** GET /api/files: the member's files, newest first (the client's default read). */
export const filesQuery = queryOptions<FileList>({
  queryKey: filesQueryKey,
  refetchInterval: (query) => (query.state.data?.some((f) => f.status === 'processing') ? CONVERSION_POLL_MS : false),
});
