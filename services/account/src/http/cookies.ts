import { SESSION_COOKIE } from '@pagecast/contracts';

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
