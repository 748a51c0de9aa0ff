import { type CurrentUser, subjects, type UpdateProfileRequest } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import { toCurrentUser } from '../domain';
import type { ProfileFields } from '../data/users';
import type { AccountDeps } from './deps';

export async function updateProfile(
  deps: AccountDeps,
  userId: string,
  input: UpdateProfileRequest,
): Promise<CurrentUser> {
  const fields: ProfileFields = { firstName: input.firstName, lastName: input.lastName };
  // Absent keeps the picture; empty or null clears it.
  if (input.profileImageUrl !== undefined) fields.profileImageUrl = input.profileImageUrl || null;
  // The language of the member's mails; absent keeps it.
  if (input.locale !== undefined) fields.locale = input.locale;
  const user = await deps.data.users.updateProfile(userId, fields);
  if (!user) throw new AppError('UNAUTHORIZED');
  await deps.outbox.add(subjects.userUpdated, {
    userId: user._id,
    email: user.email,
    firstName: user.firstName ?? '',
    lastName: user.lastName ?? '',
    profileImageUrl: user.profileImageUrl,
    updatedAt: user.updatedAt.toISOString(),
  });
  return toCurrentUser(user);
}
