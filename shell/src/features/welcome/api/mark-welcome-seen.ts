import type { OkResponse } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** POST /api/auth/mark-welcome-seen (empty body). */
export async function markWelcomeSeen(): Promise<OkResponse> {
  const res = await apiRequest('POST', '/api/auth/mark-welcome-seen', {});
  return (await res.json()) as OkResponse;
}
