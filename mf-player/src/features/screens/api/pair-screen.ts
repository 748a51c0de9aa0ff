import type { PairScreenRequest, Screen } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { screensKey } from './list-screens';

/** POST /api/screens { code, name, timeZone }: pairs the display showing that code. */
export async function pairScreen(body: PairScreenRequest): Promise<Screen> {
  return (await (await apiRequest('POST', '/api/screens', body)).json()) as Screen;
}

export function usePairScreen() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: pairScreen, onSuccess: () => qc.invalidateQueries({ queryKey: screensKey }) });
}
