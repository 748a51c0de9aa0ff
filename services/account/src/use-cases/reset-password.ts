import { AppError } from '@pagecast/service-kit';
import { hashPassword, hashToken, LOGIN_WINDOW_MS, loginKeys, RESET_TOKEN_TTL_MS, rememberBrowser } from '../domain';
import type { AccountDeps } from './deps';
import { revoke, useToken } from './shared';

/**
 * A new password from a reset mail's token; every session of the member ends. The reset proves the mailbox, so it
 * lifts the account's sign-in throttle (and this address's), and this browser becomes known to the account: it signs
 * in even while strangers' guesses hold the account's limit. `knownBrowser` is the cookie's new value.
 */
export async function resetPassword(
  deps: AccountDeps,
  token: string,
  newPassword: string,
  meta: { ip: string | null; knownBrowser?: string | null } = { ip: null },
): Promise<{ ok: true; knownBrowser: string }> {
  const { data } = deps;
  const hash = hashToken(token);
  const holder = await data.users.findByResetToken(hash, deps.clock.now());
  if (!holder || !(await useToken(deps, hash, RESET_TOKEN_TTL_MS))) throw new AppError('TOKEN_INVALID');
  const passwordHash = await hashPassword(newPassword);
  const user = await data.users.consumeResetToken(holder._id, hash, passwordHash, deps.clock.now());
  if (!user) throw new AppError('TOKEN_INVALID');
  await revoke(deps, user._id, await data.sessions.removeAllOfUser(user._id));
  const lifted = [loginKeys.account(user.email), loginKeys.pair(user.email, meta.ip ?? 'unknown')];
  await data.rateLimits.lift(lifted, LOGIN_WINDOW_MS, { always: true });
  const knownBrowser = rememberBrowser(deps.knownBrowserKey, user._id, meta.knownBrowser);
  return { ok: true, knownBrowser };
}
