import { IDENTITY_HEADER } from '@pagecast/contracts';
import { signIdentityHeader } from '@pagecast/service-kit';
import { createRemoteJWKSet, decodeJwt, errors, type JWTPayload, jwtVerify } from 'jose';
import type { Logger } from './log';
import { z } from 'zod';
import type { RevocationStore } from './revocations';
import { VerifiedTokens } from './verified';

export interface SessionIdentity {
  userId: string;
  sessionId: string;
}

export type SessionOutcome =
  | { kind: 'none' } // no cookie
  | { kind: 'valid'; identity: SessionIdentity }
  | { kind: 'refreshed'; identity: SessionIdentity; token: string; maxAgeSeconds: number | undefined }
  | { kind: 'invalid' } // bad, revoked or refused by account: clear the cookie, treat as anonymous
  | { kind: 'unavailable' }; // keys or account unreachable: anonymous for now, but keep the cookie

const Claims = z.object({ sub: z.string().min(1), sid: z.string().min(1) });
// Account answers the cookie lifetime as maxAgeSeconds, or the session's end as expiresAt (epoch s or ms).
const RefreshAnswer = z.object({
  token: z.string().min(1),
  maxAgeSeconds: z.number().positive().optional(),
  expiresAt: z.number().positive().optional(),
});

/** Cookie Max-Age for a refreshed token; undefined = a browser-session cookie (lifetime unknown). */
function cookieMaxAge(answer: z.infer<typeof RefreshAnswer>, tokenExp: number | undefined): number | undefined {
  if (answer.maxAgeSeconds !== undefined) return Math.floor(answer.maxAgeSeconds);
  if (answer.expiresAt === undefined) return undefined;
  const endSeconds = answer.expiresAt > 1e12 ? answer.expiresAt / 1000 : answer.expiresAt;
  // If that end is only the token's own expiry, a cookie ending with it would never be refreshed.
  if (tokenExp !== undefined && endSeconds <= tokenExp + 60) return undefined;
  return Math.max(0, Math.floor(endSeconds - Date.now() / 1000));
}

type RefreshResult = { token: string; maxAgeSeconds: number | undefined } | 'rejected' | 'unavailable';

/** Errors that say nothing about the token, only that account's key set could not be read. */
function isKeySetOutage(err: unknown): boolean {
  if (!(err instanceof errors.JOSEError)) return true; // fetch failures (TypeError) and the like
  // jose reports a non-200 or non-JSON key set answer with the generic code.
  return ['ERR_JOSE_GENERIC', 'ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID'].includes(err.code);
}

export interface SessionVerifier {
  check(token: string | undefined): Promise<SessionOutcome>;
  /** True when the JWKS answers (for /readyz). */
  jwksReachable(): Promise<boolean>;
}

export function createSessionVerifier(opts: {
  jwksUrl: string;
  accountUrl: string;
  internalSecret: string;
  revocations: RevocationStore;
  logger: Logger;
}): SessionVerifier {
  const { revocations, logger } = opts;
  // jose caches the key set and refetches only on an unknown kid (at most every 30 s): no call per request.
  const jwks = createRemoteJWKSet(new URL(opts.jwksUrl), { timeoutDuration: 3000, cooldownDuration: 30_000 });
  const refreshUrl = `${opts.accountUrl.replace(/\/$/, '')}/internal/sessions/refresh`;
  // One refresh per session at a time; parallel requests carrying the same expired cookie share it, and for a
  // short while afterwards the answer is reused (the browser may still send the old cookie).
  const inflight = new Map<string, Promise<RefreshResult>>();
  const recent = new Map<string, { token: string; maxAgeSeconds: number | undefined; until: number }>();
  // Signatures already checked (at most 60 s, never past exp); the revocation check below still runs every time.
  const verified = new VerifiedTokens<SessionIdentity>();

  const refresh = (token: string, identity: SessionIdentity) => {
    const hit = recent.get(token);
    if (hit && hit.until > Date.now()) return Promise.resolve<RefreshResult>(hit);
    let pending = inflight.get(token);
    if (!pending) {
      pending = callRefresh(identity)
        .then((answer) => {
          if (typeof answer === 'object') {
            for (const [k, v] of recent) if (v.until <= Date.now()) recent.delete(k);
            recent.set(token, { ...answer, until: Date.now() + 30_000 });
          }
          return answer;
        })
        .finally(() => inflight.delete(token));
      inflight.set(token, pending);
    }
    return pending;
  };

  const callRefresh = async (identity: SessionIdentity): Promise<RefreshResult> => {
    try {
      const res = await fetch(refreshUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [IDENTITY_HEADER]: signIdentityHeader(identity, opts.internalSecret),
        },
        body: JSON.stringify({ sid: identity.sessionId }),
        signal: AbortSignal.timeout(5000),
      });
      if (res.status !== 200) {
        await res.body?.cancel();
        if (res.status >= 500) logger.warn({ status: res.status }, 'session refresh: account failed');
        return res.status >= 500 ? 'unavailable' : 'rejected';
      }
      const parsed = RefreshAnswer.safeParse(await res.json());
      if (!parsed.success) {
        logger.error({ issues: parsed.error.issues }, 'session refresh answered an unexpected body');
        return 'unavailable';
      }
      const exp = decodeJwt(parsed.data.token).exp;
      return { token: parsed.data.token, maxAgeSeconds: cookieMaxAge(parsed.data, exp) };
    } catch (err) {
      logger.warn({ err }, 'session refresh: account unreachable');
      return 'unavailable';
    }
  };

  const identityOf = (payload: JWTPayload): SessionIdentity | null => {
    const claims = Claims.safeParse(payload);
    return claims.success ? { userId: claims.data.sub, sessionId: claims.data.sid } : null;
  };

  return {
    async check(token) {
      if (!token) return { kind: 'none' };
      const known = verified.get(token);
      if (known) return revocations.has(known.sessionId) ? { kind: 'invalid' } : { kind: 'valid', identity: known };
      try {
        const { payload } = await jwtVerify(token, jwks, { algorithms: ['EdDSA'] });
        const identity = identityOf(payload);
        if (!identity || revocations.has(identity.sessionId)) return { kind: 'invalid' };
        verified.set(token, identity, payload.exp);
        return { kind: 'valid', identity };
      } catch (err) {
        // jose checks the signature before the claims, so an expired-token error means the signature is good.
        if (err instanceof errors.JWTExpired) {
          const identity = identityOf(err.payload);
          if (!identity || revocations.has(identity.sessionId)) return { kind: 'invalid' };
          const answer = await refresh(token, identity);
          if (answer === 'rejected') return { kind: 'invalid' };
          if (answer === 'unavailable') return { kind: 'unavailable' };
          return { kind: 'refreshed', identity, token: answer.token, maxAgeSeconds: answer.maxAgeSeconds };
        }
        if (isKeySetOutage(err)) {
          logger.warn({ err }, 'session check: key set unreachable');
          return { kind: 'unavailable' };
        }
        return { kind: 'invalid' };
      }
    },
    async jwksReachable() {
      try {
        const res = await fetch(opts.jwksUrl, { signal: AbortSignal.timeout(2000) });
        await res.body?.cancel();
        return res.ok;
      } catch {
        return false;
      }
    },
  };
}
