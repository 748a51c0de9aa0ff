// The known-browser cookie (OWASP's device cookies): a browser that signed in to an account, or completed its
// password reset, carries an entry signed with the service's key and bound to that account's id. Such a browser is
// let past the account's failure limit that strangers' guesses fill (its own failures are throttled under a key of
// its own: login-throttle.ts). Checked with an HMAC, no database read.
import { createHmac, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';
import { KNOWN_BROWSER_ACCOUNTS } from './rules';

/** HttpOnly, SameSite=Strict, Path=/api/auth (http/cookies.ts): only sign-in and reset calls carry it. */
export const KNOWN_BROWSER_COOKIE = 'pc_known_browser';

const ID_BYTES = 16;
const TAG_BYTES = 16;
/** `<id>.<tag>`, both base64url: 22 characters each */
const ENTRY = /^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}$/;
/** Bytes of the server key (data/known-browser-key.ts). */
export const KNOWN_BROWSER_KEY_BYTES = 32;

/** A secret KeyObject (createSecretKey): an HMAC with it costs a fifth of one with the key's bytes (measured). */
function tag(key: KeyObject, userId: string, id: string): Buffer {
  return createHmac('sha256', key)
    .update(`pagecast known browser v1\0${userId}\0${id}`)
    .digest()
    .subarray(0, TAG_BYTES);
}

/** The cookie's well-formed entries (one per account the browser is known to), at most KNOWN_BROWSER_ACCOUNTS. */
function entriesOf(value: string | null | undefined): string[] {
  if (!value) return [];
  return value
    .split('~')
    .filter((e) => ENTRY.test(e))
    .slice(0, KNOWN_BROWSER_ACCOUNTS);
}

/** A valid entry of the cookie for one account: the browser's id and the entry as the cookie holds it. */
export interface KnownBrowser {
  id: string;
  entry: string;
}

/** The cookie's entry this key signed for this account, if it carries one; null otherwise. */
export function knownBrowser(key: KeyObject, userId: string, cookie: string | null | undefined): KnownBrowser | null {
  for (const entry of entriesOf(cookie)) {
    const [id = '', given = ''] = entry.split('.');
    const expected = tag(key, userId, id);
    const actual = Buffer.from(given, 'base64url');
    if (actual.length === expected.length && timingSafeEqual(actual, expected)) return { id, entry };
  }
  return null;
}

/**
 * The cookie after the account's sign-in (or reset): its entry first (kept when `known`, the entry the browser
 * already carries for it), then the other accounts' entries it carried, the oldest dropped beyond
 * KNOWN_BROWSER_ACCOUNTS.
 */
export function rememberBrowser(
  key: KeyObject,
  userId: string,
  cookie: string | null | undefined,
  known: KnownBrowser | null = knownBrowser(key, userId, cookie),
): string {
  let own = known?.entry;
  if (!own) {
    const id = randomBytes(ID_BYTES).toString('base64url');
    own = `${id}.${tag(key, userId, id).toString('base64url')}`;
  }
  const others = entriesOf(cookie).filter((e) => e !== own);
  return [own, ...others].slice(0, KNOWN_BROWSER_ACCOUNTS).join('~');
}
