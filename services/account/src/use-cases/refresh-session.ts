import type { AccountDeps } from './deps';

/** A new token for a live session whose owner is the caller; null when it is gone or expired. */
export async function refreshSession(deps: AccountDeps, userId: string, sid: string) {
  const session = await deps.data.sessions.findActive(sid);
  if (!session || session.sess.userId !== userId) return null;
  const token = await deps.tokens.sign(userId, sid);
  const expiresAt = Math.floor(session.expire.getTime() / 1000);
  return { token, expiresAt, maxAgeSeconds: Math.max(0, expiresAt - Math.floor(Date.now() / 1000)) };
}
