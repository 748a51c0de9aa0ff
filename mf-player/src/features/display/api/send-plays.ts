import type { PlayBatchResponse, PlayRecord } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** POST /api/screens/device/plays: a batch of proof-of-play records (a resend counts each record once). */
export async function sendPlays(plays: PlayRecord[]): Promise<PlayBatchResponse> {
  return (await (await apiRequest('POST', '/api/screens/device/plays', { plays })).json()) as PlayBatchResponse;
}
