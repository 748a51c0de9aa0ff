import type { ChangePasswordRequest, MessageResponse } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** PUT /api/user/password: local accounts; every other session of the user ends. */
export async function changePassword(body: ChangePasswordRequest): Promise<MessageResponse> {
  const res = await apiRequest('PUT', '/api/user/password', body);
  return (await res.json()) as MessageResponse;
}
