// When a login attempt may be checked: the sign-in throttle of rules.ts as plain functions of what the rate-limit
// repository counted (data/rate-limits.ts), so the policy can be read, and tested, apart from its storage.
import { LOGIN_DELAY_FIRST_MS, LOGIN_FREE_FAILURES, LOGIN_WINDOW_MS } from './rules';

/** What a key holds when an attempt begins (data/rate-limits.ts KeyCount). */
export interface CountedKey {
  /** times (ms) of its failures in the window and after its last lift, oldest first */
  failures: number[];
  /** other attempts on it being checked now */
  checking: number;
}

/** The keys a login attempt is counted under. Addresses and e-mails are the keys' last parts. */
export const loginKeys = {
  /** every browser the account does not know, from any address */
  account: (email: string) => `login:account:${email}`,
  /** every account, from one address (browsers the account does not know) */
  address: (ip: string) => `login:address:${ip}`,
  /** one account from one address (browsers the account does not know) */
  pair: (email: string, ip: string) => `login:pair:${email}|${ip}`,
  /** one browser the account knows (its id from the known-browser cookie) */
  browser: (browserId: string) => `login:browser:${browserId}`,
};

/**
 * A hard limit: milliseconds until the key has fewer than `limit` failures in the window (0: under it now). Attempts
 * still being checked count as failures; when only they put the key at its limit, the answer is a second.
 */
export function waitForLimit(key: CountedKey, limit: number, now: number, window = LOGIN_WINDOW_MS): number {
  if (key.failures.length + key.checking < limit) return 0;
  const leaving = key.failures[key.failures.length - limit];
  return leaving === undefined ? 1000 : Math.max(1000, leaving + window - now);
}

/**
 * A growing delay: the first LOGIN_FREE_FAILURES failures cost nothing; after n >= LOGIN_FREE_FAILURES, the next
 * attempt waits LOGIN_DELAY_FIRST_MS * 2^(n - LOGIN_FREE_FAILURES) after the newest one (at most the window): 15 s,
 * 30 s, 1 min, 2 min ... Failures leave the count with the window, or all at once with a lift. Milliseconds to wait
 * (0: go on); an attempt still being checked counts as a failure of this moment.
 */
export function waitForDelay(key: CountedKey, now: number, window = LOGIN_WINDOW_MS): number {
  const previous = key.failures.length + key.checking;
  if (previous < LOGIN_FREE_FAILURES) return 0;
  const delay = Math.min(LOGIN_DELAY_FIRST_MS * 2 ** (previous - LOGIN_FREE_FAILURES), window);
  const newest = key.checking > 0 ? now : (key.failures[key.failures.length - 1] ?? now);
  return Math.max(0, newest + delay - now);
}

/** The answer's Retry-After for the longest of the waits, in whole seconds (at least 1); 0 when none. */
export function retryAfterSeconds(waitsMs: number[]): number {
  const longest = Math.max(0, ...waitsMs);
  return longest > 0 ? Math.max(1, Math.ceil(longest / 1000)) : 0;
}
