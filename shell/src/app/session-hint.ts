import { currentUserQueryKey } from '@pagecast/ui';
import type { QueryClient } from '@tanstack/react-query';
import { isMarkedSignedOut } from './signed-out-mark';

/**
 * A page served without a session cookie says so (the gateway's `<meta name="pc-session" content="none">`): nobody
 * is signed in, so the signed-out screens render at once instead of after GET /api/auth/user. Read once, at start;
 * a sign-in later sets the user as before. Without the mark (a cookie was sent, or the page came from a server that
 * does not add it) the shell asks as it always did.
 */
export function seedSignedOut(queryClient: QueryClient): boolean {
  if (!isMarkedSignedOut()) return false;
  queryClient.setQueryData(currentUserQueryKey, null);
  return true;
}
