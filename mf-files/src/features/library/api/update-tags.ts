import type { FileSummary } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** PUT /api/files/:id with the tags (the interface sends only them). */
export async function updateTags(id: string, tags: string[]): Promise<FileSummary> {
  const res = await apiRequest('PUT', `/api/files/${encodeURIComponent(id)}`, { tags });
  return (await res.json()) as FileSummary;
}
