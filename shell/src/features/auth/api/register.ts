import type { RegisterRequest, RegisterResponse } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** POST /api/auth/register: creates the account and sends the verification e-mail. */
export async function register(body: RegisterRequest): Promise<RegisterResponse> {
  const res = await apiRequest('POST', '/api/auth/register', body);
  return (await res.json()) as RegisterResponse;
}
