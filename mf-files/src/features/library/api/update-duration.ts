import type { FileSummary, UpdateDurationRequest } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** PUT /api/files/:id/duration */
export async function updateDuration(id: string, body: UpdateDurationRequest): Promise<FileSummary> {
  const res = await apiRequest('PUT', `/api/files/${encodeURIComponent(id)}/duration`, body);
  return (await res.json()) as FileSummary;
}
