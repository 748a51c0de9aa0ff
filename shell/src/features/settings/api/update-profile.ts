import type { CurrentUser, UpdateProfileRequest } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** PUT /api/user/profile: answers the updated user. */
export async function updateProfile(body: UpdateProfileRequest): Promise<CurrentUser> {
  const res = await apiRequest('PUT', '/api/user/profile', body);
  return (await res.json()) as CurrentUser;
}
