import type { Screen, UpdateScreenRequest } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { screensKey } from './list-screens';

/** PUT /api/screens/:id: name, time zone or what the screen plays. */
export async function updateScreen(input: { id: string; body: UpdateScreenRequest }): Promise<Screen> {
  return (await (await apiRequest('PUT', `/api/screens/${encodeURIComponent(input.id)}`, input.body)).json()) as Screen;
}

export function useUpdateScreen() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateScreen, onSuccess: () => qc.invalidateQueries({ queryKey: screensKey }) });
}
