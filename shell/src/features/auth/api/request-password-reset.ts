import type { MessageResponse, RequestPasswordResetRequest } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** POST /api/auth/request-password-reset: same answer whether or not the address exists. */
export async function requestPasswordReset(body: RequestPasswordResetRequest): Promise<MessageResponse> {
  const res = await apiRequest('POST', '/api/auth/request-password-reset', body);
  return (await res.json()) as MessageResponse;
}
