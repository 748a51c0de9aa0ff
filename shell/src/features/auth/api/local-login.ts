import type { LocalLoginRequest, LocalLoginResponse } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** POST /api/auth/local-login; a 403 for an unverified address comes back as HttpError with data.requiresVerification. */
export async function localLogin(body: LocalLoginRequest): Promise<LocalLoginResponse> {
  const res = await apiRequest('POST', '/api/auth/local-login', body);
  return (await res.json()) as LocalLoginResponse;
}
