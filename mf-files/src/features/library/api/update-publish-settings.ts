import type { FileSummary, PublishSettingsRequest } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** PUT /api/files/:id/publish */
export async function updatePublishSettings(id: string, body: PublishSettingsRequest): Promise<FileSummary> {
  const res = await apiRequest('PUT', `/api/files/${encodeURIComponent(id)}/publish`, body);
  return (await res.json()) as FileSummary;
}
