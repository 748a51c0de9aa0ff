import { SESSION_LIFETIME_MS } from '../domain';
import type { AccountDeps } from './deps';

export interface NewSession {
  sid: string;
  token: string;
  maxAgeSeconds: number;
}

/** A session for an account (login, and the operator command for old external accounts). */
export async function openSession(
  deps: AccountDeps,
  userId: string,
  meta: { userAgent: string | null; ip: string | null },
): Promise<NewSession> {
  const session = await deps.data.sessions.create({ userId, ...meta, lifetimeMs: SESSION_LIFETIME_MS });
  const token = await deps.tokens.sign(userId, session._id);
  return { sid: session._id, token, maxAgeSeconds: Math.floor(SESSION_LIFETIME_MS / 1000) };
}
