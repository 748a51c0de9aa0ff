import type { MessageResponse, ResetPasswordRequest } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** POST /api/auth/reset-password: token and new password (the confirmation is never sent). */
export async function resetPassword(body: ResetPasswordRequest): Promise<MessageResponse> {
  const res = await apiRequest('POST', '/api/auth/reset-password', body);
  return (await res.json()) as MessageResponse;
}
