import type { AccountDeps } from './deps';
import { revoke } from './shared';

/** Ends the caller's own session (a session id of someone else's is removed from nobody). */
export async function logout(deps: AccountDeps, userId: string, sid: string) {
  const removed = await deps.data.sessions.remove(sid);
  if (removed && removed.sess.userId === userId) await revoke(deps, userId, [sid]);
}
