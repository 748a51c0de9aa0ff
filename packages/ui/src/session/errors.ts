import type { TFunction } from 'i18next';
import { HttpError } from './http';

/**
 * The text to show for a failed call: the translation of the server's error code when we have one, else the
 * server's own message, else the given fallback (conventions: "front ends translate by code").
 */
export function describeError(error: unknown, t: TFunction, fallback: string): string {
  if (error instanceof HttpError) {
    if (error.code) {
      const key = `errors.${error.code}`;
      const translated = t(key, { defaultValue: '' });
      if (translated && translated !== key) return translated;
    }
    if (error.serverMessage) return error.serverMessage;
  }
  return fallback;
}
