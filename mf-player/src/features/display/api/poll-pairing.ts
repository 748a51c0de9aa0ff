import type { DisplayPublicKey, PairingStatus } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/**
 * POST /api/screens/pairing/:id/poll: 'paired' comes with the device cookie, set by the answer itself; the display's
 * public key goes with it, bound to the screen by the poll that hands out the credential.
 */
export async function pollPairing(
  pairingId: string,
  pollSecret: string,
  publicKey?: DisplayPublicKey,
): Promise<PairingStatus> {
  const res = await apiRequest('POST', `/api/screens/pairing/${encodeURIComponent(pairingId)}/poll`, {
    pollSecret,
    ...(publicKey ? { publicKey } : {}),
  });
  return (await res.json()) as PairingStatus;
}
