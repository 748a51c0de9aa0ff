import { SESSION_COOKIE } from '@pagecast/contracts';
import { KNOWN_BROWSER_COOKIE, KNOWN_BROWSER_MAX_AGE_S } from '../domain';

/** The session cookie: HttpOnly, SameSite=Lax, Path=/, Secure when the app is served over https. */
export function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  const parts = [
    `${SESSION_COOKIE}=${value}`,
    'Path=/',
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

export function clearSessionCookie(secure: boolean): string {
  return `${sessionCookie('', 0, secure)}; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

/**
 * The known-browser cookie (domain/known-browser.ts): HttpOnly, SameSite=Strict, sent only to the sign-in and reset
 * calls (Path=/api/auth), for KNOWN_BROWSER_MAX_AGE_S; Secure over https. Logout leaves it: it names no session.
 */
export function knownBrowserCookie(value: string, secure: boolean): string {
  const parts = [
    `${KNOWN_BROWSER_COOKIE}=${value}`,
    'Path=/api/auth',
    `Max-Age=${KNOWN_BROWSER_MAX_AGE_S}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

/** One cookie's value from a Cookie header (the first one of that name), or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}
