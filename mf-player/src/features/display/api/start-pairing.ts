import type { PairingStarted } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** POST /api/screens/pairing: a new code for this display (and the secret only it may poll with). */
export async function startPairing(): Promise<PairingStarted> {
  return (await (await apiRequest('POST', '/api/screens/pairing')).json()) as PairingStarted;
}
