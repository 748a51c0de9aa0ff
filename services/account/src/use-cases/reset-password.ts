import { AppError } from '@pagecast/service-kit';
import { hashPassword, hashToken, messages, RESET_TOKEN_TTL_MS } from '../domain';
import type { AccountDeps } from './deps';
import { revoke, useToken } from './shared';

/** A new password from a reset mail's token; every session of the member ends. */
export async function resetPassword(deps: AccountDeps, token: string, newPassword: string) {
  const { data } = deps;
  const hash = hashToken(token);
  const holder = await data.users.findByResetToken(hash, new Date());
  if (!holder || !(await useToken(deps, hash, RESET_TOKEN_TTL_MS))) throw new AppError('TOKEN_INVALID');
  const passwordHash = await hashPassword(newPassword);
  const user = await data.users.consumeResetToken(hash, passwordHash, new Date());
  if (!user) throw new AppError('TOKEN_INVALID');
  await revoke(deps, user._id, await data.sessions.removeAllOfUser(user._id));
  return { message: messages.passwordReset };
}
