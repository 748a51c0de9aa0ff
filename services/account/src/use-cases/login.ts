import type { LocalLoginRequest } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import {
  LOGIN_FAILURES_PER_ACCOUNT,
  LOGIN_FAILURES_PER_ADDRESS,
  LOGIN_WINDOW_MS,
  messages,
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
 * Attempts are counted per account and per address before the password is checked (so parallel guesses cannot slip
 * past the limit); only a failure stays counted. A successful login writes its session and nothing else: the
 * database is not what a login waits on, the hash is.
 */
export async function login(
  deps: AccountDeps,
  input: LocalLoginRequest,
  meta: { userAgent: string | null; ip: string | null },
): Promise<{ session: NewSession; isFirstLogin: boolean }> {
  const { data } = deps;
  // A real promise (a query runs again on each then): awaited below unless refused first.
  const userRead = Promise.resolve(data.users.findForLogin(input.email));
  userRead.catch(() => {});
  const attempt = await data.rateLimits.begin(
    [`login:account:${input.email}`, `login:address:${meta.ip ?? 'unknown'}`],
    LOGIN_WINDOW_MS,
  );
  // Anything but a wrong password (a refusal, an unverified address, a database error) is not a guess.
  let outcome: 'failed' | 'forgotten' = 'forgotten';
  try {
    const limits = [LOGIN_FAILURES_PER_ACCOUNT, deps.loginFailuresPerAddress ?? LOGIN_FAILURES_PER_ADDRESS];
    const over = limits.flatMap((limit, i) => ((attempt.counts[i] ?? 0) > limit ? [i] : []));
    if (over.length > 0) {
      const retryAfterSeconds = Math.max(...over.map((i) => attempt.retryAfterSeconds(i)));
      throw new AppError('RATE_LIMITED', { details: { retryAfterSeconds } });
    }
    const user = await userRead;
    // Unknown address and external account (no password) take the same time and answer as a wrong password.
    const ok = await verifyPassword(user?.passwordHash, input.password);
    if (!user || !ok) {
      outcome = 'failed';
      throw new AppError('INVALID_CREDENTIALS');
    }
    if (!user.emailVerified) throw new EmailNotVerified(user.email);
    const session = await openSession(deps, user._id, meta);
    // Later logins skip the claim (an insert) when the first one is already recorded.
    const isFirstLogin = !user.firstLoginAt && (await data.claims.claim(`first-login:${user._id}`));
    if (isFirstLogin) await data.users.recordFirstLogin(user._id, new Date());
    return { session, isFirstLogin };
  } finally {
    // A failure is stored before the answer goes out, so the next guess anywhere counts it.
    await attempt.end(outcome);
  }
}
