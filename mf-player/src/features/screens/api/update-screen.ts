import type { Screen, UpdateScreenRequest } from '@pagecast/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type MayWait, sendMayWait } from '../../../lib/approval/proposals-api';
import { screensKey } from './list-screens';

/**
 * PUT /api/screens/:id: name, time zone or what the screen plays. A change of what it plays by an editor of a
 * workspace that asks for approval waits as a proposal (202) instead.
 */
export async function updateScreen(input: { id: string; body: UpdateScreenRequest }): Promise<MayWait<Screen>> {
  return sendMayWait<Screen>('PUT', `/api/screens/${encodeURIComponent(input.id)}`, input.body);
}

export function useUpdateScreen() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateScreen, onSuccess: () => qc.invalidateQueries({ queryKey: screensKey }) });
}
