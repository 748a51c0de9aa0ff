import type { FileSummary, UpdateDisplayModeRequest } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** PUT /api/files/:id/display-mode */
export async function updateDisplayMode(id: string, body: UpdateDisplayModeRequest): Promise<FileSummary> {
  const res = await apiRequest('PUT', `/api/files/${encodeURIComponent(id)}/display-mode`, body);
  return (await res.json()) as FileSummary;
}
