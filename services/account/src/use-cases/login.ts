import type { LocalLoginRequest } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import {
  knownBrowser,
  LOGIN_FAILURES_PER_ACCOUNT,
  LOGIN_FAILURES_PER_ADDRESS,
  LOGIN_WINDOW_MS,
  loginKeys,
  messages,
  rememberBrowser,
  retryAfterSeconds,
  verifyPassword,
  waitForDelay,
  waitForLimit,
} from '../domain';
import type { AccountDeps } from './deps';
import { type NewSession, openSession } from './open-session';

/** Thrown by login for an unverified address; the route answers the spec's 403 body. */
export class EmailNotVerified extends AppError {
  constructor(readonly email: string) {
    super('EMAIL_NOT_VERIFIED', { message: messages.emailNotVerified });
  }
}

export interface LoginMeta {
  userAgent: string | null;
  ip: string | null;
  /** the request's known-browser cookie (domain/known-browser.ts), if any */
  knownBrowser?: string | null;
}

/**
 * The sign-in throttle (rules.ts, login-throttle.ts), so that strangers' guesses cannot lock the owner out:
 * - a browser this account knows (a valid KNOWN_BROWSER_COOKIE entry for its member) is counted under its own key
 *   only, with a growing delay: no stranger can fill that key;
 * - any other browser is counted per (account, address) with a growing delay, per account with a hard limit (the
 *   bound on guessing with many addresses) and per address over all accounts;
 * - a successful sign-in lifts the account's, the pair's and the browser's failures, and (re)writes the cookie.
 * Attempts are counted before the password is checked (so parallel guesses cannot slip past the limits); only a
 * failure stays counted. A successful login writes its session, and a lift only when there were failures to lift.
 */
export async function login(
  deps: AccountDeps,
  input: LocalLoginRequest,
  meta: LoginMeta,
): Promise<{ session: NewSession; isFirstLogin: boolean; knownBrowser: string }> {
  const { data } = deps;
  const email = input.email.trim().toLowerCase();
  const ip = meta.ip ?? 'unknown';
  // The member first: whether this browser is known to them decides the keys. An unknown address costs the same
  // reads as a member's (users.findForLogin), and no address has a browser known to it without a member.
  const user = await data.users.findForLogin(email);
  const known = user && meta.knownBrowser ? knownBrowser(deps.knownBrowserKey, user._id, meta.knownBrowser) : null;
  const browserId = known?.id;
  const keys = browserId
    ? [loginKeys.browser(browserId)]
    : [loginKeys.pair(email, ip), loginKeys.account(email), loginKeys.address(ip)];
  const attempt = await data.rateLimits.begin(keys, LOGIN_WINDOW_MS);
  // Anything but a wrong password (a refusal, an unverified address, a database error) is not a guess.
  let outcome: 'failed' | 'forgotten' = 'forgotten';
  try {
    const now = Date.now();
    const [first, account, address] = attempt.keys;
    const waits = [first && waitForDelay(first, now)];
    if (!browserId) {
      if (account) waits.push(waitForLimit(account, LOGIN_FAILURES_PER_ACCOUNT, now));
      if (address) waits.push(waitForLimit(address, deps.loginFailuresPerAddress ?? LOGIN_FAILURES_PER_ADDRESS, now));
    }
    const retry = retryAfterSeconds(waits.map((w) => w ?? 0));
    if (retry > 0) throw new AppError('RATE_LIMITED', { details: { retryAfterSeconds: retry } });
    // Unknown address and external account (no password) take the same time and answer as a wrong password.
    const ok = await verifyPassword(user?.passwordHash, input.password);
    if (!user || !ok) {
      outcome = 'failed';
      throw new AppError('INVALID_CREDENTIALS');
    }
    if (!user.emailVerified) throw new EmailNotVerified(user.email);
    // The account's throttle ends here: strangers' failures, this address's and this browser's.
    const lifted = [loginKeys.account(email), loginKeys.pair(email, ip)];
    if (browserId) lifted.push(loginKeys.browser(browserId));
    const [session] = await Promise.all([
      openSession(deps, user._id, { userAgent: meta.userAgent, ip: meta.ip }),
      data.rateLimits.lift(lifted, LOGIN_WINDOW_MS),
    ]);
    // Later logins skip the claim (an insert) when the first one is already recorded.
    const isFirstLogin = !user.firstLoginAt && (await data.claims.claim(`first-login:${user._id}`)) !== null;
    if (isFirstLogin) await data.users.recordFirstLogin(user._id, deps.clock.now());
    return {
      session,
      isFirstLogin,
      knownBrowser: rememberBrowser(deps.knownBrowserKey, user._id, meta.knownBrowser, known),
    };
  } finally {
    // A failure is stored before the answer goes out, so the next guess anywhere counts it.
    await attempt.end(outcome);
  }
}
