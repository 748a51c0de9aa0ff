import type { PlayBatchRequest, PlayBatchResponse } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** POST /api/screens/device/plays: a batch of proof-of-play records, signed (a resend counts each record once). */
export async function sendPlays(body: PlayBatchRequest): Promise<PlayBatchResponse> {
  return (await (await apiRequest('POST', '/api/screens/device/plays', body)).json()) as PlayBatchResponse;
}
