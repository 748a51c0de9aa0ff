import { apiRequest } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { screensKey } from './list-screens';

/** DELETE /api/screens/:id: unpairs; the display shows a new pairing code within seconds. */
export async function revokeScreen(id: string): Promise<void> {
  await apiRequest('DELETE', `/api/screens/${encodeURIComponent(id)}`);
}

export function useRevokeScreen() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: revokeScreen, onSuccess: () => qc.invalidateQueries({ queryKey: screensKey }) });
}
