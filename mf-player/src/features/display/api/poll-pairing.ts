import type { PairingStatus } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** POST /api/screens/pairing/:id/poll: 'paired' comes with the device cookie, set by the answer itself. */
export async function pollPairing(pairingId: string, pollSecret: string): Promise<PairingStatus> {
  const res = await apiRequest('POST', `/api/screens/pairing/${encodeURIComponent(pairingId)}/poll`, { pollSecret });
  return (await res.json()) as PairingStatus;
}
