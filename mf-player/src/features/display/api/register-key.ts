import type { DisplayKeyResponse, DisplayPublicKey } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** POST /api/screens/device/key: binds this display's key on first use (the same key again: where its chain stands). */
export async function registerKey(publicKey: DisplayPublicKey): Promise<DisplayKeyResponse> {
  return (await (await apiRequest('POST', '/api/screens/device/key', { publicKey })).json()) as DisplayKeyResponse;
}
