import type { CurrentUser, LocalLoginRequest } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import {
  LOGIN_FAILURES_PER_ACCOUNT,
  LOGIN_FAILURES_PER_ADDRESS,
  LOGIN_WINDOW_MS,
  messages,
  toCurrentUser,
  verifyPassword,
} from '../domain';
import type { AccountDeps } from './deps';
import { type NewSession, openSession } from './open-session';

/** Thrown by login for an unverified address; the route answers the spec's 403 body. */
export class EmailNotVerified extends AppError {
  constructor(readonly email: string) {
    super('EMAIL_NOT_VERIFIED', { message: messages.emailNotVerified });
  }
}

/**
 * Failed attempts are counted per account and per address before the password is checked (so parallel
 * guesses cannot slip past the limit); a successful login takes its count back. One attempt record counts for
 * both, and the member is read meanwhile: the database is not what a login waits on, the hash is.
 */
export async function login(
  deps: AccountDeps,
  input: LocalLoginRequest,
  meta: { userAgent: string | null; ip: string | null },
): Promise<{ session: NewSession; isFirstLogin: boolean; user: CurrentUser }> {
  const { data } = deps;
  // A real promise (a query runs again on each then): awaited below unless refused first.
  const userRead = Promise.resolve(data.users.findByEmail(input.email));
  userRead.catch(() => {});
  const hit = await data.rateLimits.hit(
    [`login:account:${input.email}`, `login:address:${meta.ip ?? 'unknown'}`],
    LOGIN_WINDOW_MS,
  );
  const limits = [LOGIN_FAILURES_PER_ACCOUNT, deps.loginFailuresPerAddress ?? LOGIN_FAILURES_PER_ADDRESS];
  const over = limits.flatMap((limit, i) => ((hit.counts[i] ?? 0) > limit ? [i] : []));
  if (over.length > 0) {
    // A refused attempt is not a guess: do not let it extend the lock.
    await hit.undo();
    const retryAfterSeconds = Math.max(...over.map((i) => hit.retryAfterSeconds(i)));
    throw new AppError('RATE_LIMITED', { details: { retryAfterSeconds } });
  }
  const user = await userRead;
  // Unknown address and external account (no password) take the same time and answer as a wrong password.
  const ok = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !ok) throw new AppError('INVALID_CREDENTIALS');
  if (!user.emailVerified) {
    await hit.undo();
    throw new EmailNotVerified(user.email);
  }
  // Taking the attempt back and opening the session are independent writes: one wait, not two.
  const [, session] = await Promise.all([hit.undo(), openSession(deps, user._id, meta)]);
  // Later logins skip the claim (an insert) when the first one is already recorded.
  const isFirstLogin = !user.firstLoginAt && (await data.claims.claim(`first-login:${user._id}`));
  if (isFirstLogin) await data.users.recordFirstLogin(user._id, new Date());
  return { session, isFirstLogin, user: toCurrentUser(user) };
}
