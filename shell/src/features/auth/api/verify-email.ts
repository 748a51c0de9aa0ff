import type { VerifyEmailRequest, VerifyEmailResponse } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** POST /api/auth/verify-email: a token is used once. */
export async function verifyEmail(body: VerifyEmailRequest): Promise<VerifyEmailResponse> {
  const res = await apiRequest('POST', '/api/auth/verify-email', body);
  return (await res.json()) as VerifyEmailResponse;
}
