import type { AccountDeps } from './deps';

/** The caller's session, checked against the store (a revoked one fails even before the gateway hears). */
export async function isSessionAlive(deps: AccountDeps, userId: string, sid: string): Promise<boolean> {
  const session = await deps.data.sessions.findActive(sid);
  return session?.sess.userId === userId;
}
