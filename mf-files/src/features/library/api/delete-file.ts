import { apiRequest } from '@pagecast/ui';

/** DELETE /api/files/:id */
export async function deleteFile(id: string): Promise<void> {
  await apiRequest('DELETE', `/api/files/${encodeURIComponent(id)}`);
}
