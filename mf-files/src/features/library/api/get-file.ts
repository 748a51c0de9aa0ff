import type { FileSummary } from '@pagecast/contracts';
import { queryOptions } from '@tanstack/react-query';
import { CONVERSION_POLL_MS } from './list-files';

/** GET /api/files/:id: one file, read again while it converts (the upload dialog follows its pages). */
export const fileQuery = (id: string) =>
  queryOptions<FileSummary>({
    queryKey: ['/api/files', id],
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? CONVERSION_POLL_MS / 2 : false),
  });
