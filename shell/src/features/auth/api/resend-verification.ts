import type { MessageResponse, ResendVerificationRequest } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** POST /api/auth/resend-verification: a new link replaces the previous one. */
export async function resendVerification(body: ResendVerificationRequest): Promise<MessageResponse> {
  const res = await apiRequest('POST', '/api/auth/resend-verification', body);
  return (await res.json()) as MessageResponse;
}
