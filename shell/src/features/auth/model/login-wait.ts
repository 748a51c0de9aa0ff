import { HttpError } from '@pagecast/ui';

/** The wait a refused sign-in asks for, as the catalogue key that words it and its count (seconds or minutes). */
export interface LoginWait {
  key: 'auth.login.waitSeconds' | 'auth.login.waitMinutes';
  count: number;
}

/**
 * A 429 from the sign-in (the account service's throttle or the gateway's limiter: both send
 * details.retryAfterSeconds) as the wait to show: under a minute in seconds, else in whole minutes rounded up.
 * undefined for any other error; a 429 without a usable figure waits a minute.
 */
export function loginWait(error: unknown): LoginWait | undefined {
  if (!(error instanceof HttpError) || error.status !== 429) return undefined;
  const details = error.data?.details as { retryAfterSeconds?: unknown } | undefined;
  const raw = details?.retryAfterSeconds ?? error.data?.retryAfterSeconds;
  const seconds = typeof raw === 'number' && Number.isFinite(raw) && raw > 0 ? Math.ceil(raw) : 60;
  if (seconds < 60) return { key: 'auth.login.waitSeconds', count: seconds };
  return { key: 'auth.login.waitMinutes', count: Math.ceil(seconds / 60) };
}
