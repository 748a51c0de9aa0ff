import { constants } from '@pagecast/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getQueryFn } from './http';

/** The fields the front ends read from GET /api/auth/user (the contracts' CurrentUser has them all). */
export interface SessionUser {
  id: string;
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  profileImageUrl?: string | null;
  points?: number;
  membershipTier?: string;
  [key: string]: unknown;
}

export const currentUserQueryKey = ['/api/auth/user'] as const;
export const CURRENT_USER_STALE_TIME_MS: number = constants.currentUserStaleTimeMs;

/** A 401 means "no user" (null), any other failure is an error; cached for 5 minutes. */
export const currentUserQuery = queryOptions({
  queryKey: currentUserQueryKey,
  queryFn: getQueryFn<SessionUser>({ on401: 'returnNull' }),
  staleTime: CURRENT_USER_STALE_TIME_MS,
  // A failed read (account down) is not retried each time another page or remote mounts a reader: that would
  // flip the whole route table back to "loading" in a loop.
  retryOnMount: false,
});

export function useAuth() {
  const { data, isLoading, error } = useQuery(currentUserQuery);
  return { user: data ?? null, isLoading, isAuthenticated: Boolean(data), error };
}

const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Avatar text: initials of first and last name, else the e-mail's first letter, else 'U'. */
export function avatarInitials(user: Pick<SessionUser, 'firstName' | 'lastName' | 'email'> | null | undefined): string {
  const first = user?.firstName?.trim();
  const last = user?.lastName?.trim();
  // A Japanese, Chinese or Korean name is written family name first and read as one: two first characters (山田 花子
  // as 花山) make a new surname. The family name's first character is what such avatars show.
  if (last && cjk.test(`${last}${first ?? ''}`)) return [...last][0] ?? 'U';
  if (first && last) return `${first[0]}${last[0]}`.toUpperCase();
  const email = user?.email?.trim();
  if (email) return email[0]?.toUpperCase() ?? 'U';
  return 'U';
}
