import type { ChangePasswordRequest } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import { hashPassword, verifyPassword } from '../domain';
import type { AccountDeps } from './deps';
import { mustFindUser, revoke } from './shared';

/** Local accounts only; the current password is checked; every other session of the user ends. */
export async function changePassword(
  deps: AccountDeps,
  userId: string,
  currentSid: string,
  input: ChangePasswordRequest,
) {
  const { data } = deps;
  const user = await mustFindUser(deps, userId);
  if (user.authProvider !== 'local' || !user.passwordHash) throw new AppError('NOT_LOCAL_ACCOUNT');
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new AppError('WRONG_CURRENT_PASSWORD');
  }
  const updated = await data.users.setPassword(userId, await hashPassword(input.newPassword));
  if (!updated) throw new AppError('NOT_LOCAL_ACCOUNT');
  await revoke(deps, userId, await data.sessions.removeAllOfUser(userId, currentSid));
  return { ok: true as const };
}
