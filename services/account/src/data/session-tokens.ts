import { SESSION_TOKEN_TTL_SECONDS } from '@pagecast/contracts';
import { importJWK, type JWK, SignJWT } from 'jose';
import type { SigningKeyRecord, SigningKeyRepository } from './signing-keys';

/** How long a replica trusts its cached key list before rereading it (a rotation reaches every replica). */
const KEY_CACHE_MS = 60_000;

export interface SessionTokens {
  /** An EdDSA JWT with sub, sid, iat and exp = iat + SESSION_TOKEN_TTL_SECONDS, signed by the newest key. */
  sign(userId: string, sessionId: string, now?: number): Promise<string>;
  /** The public keys of every stored generation, for GET /.well-known/jwks.json. */
  jwks(): Promise<{ keys: JWK[] }>;
}

export function createSessionTokens(keys: SigningKeyRepository): SessionTokens {
  let cached:
    | { at: number; list: SigningKeyRecord[]; signer: { kid: string; key: CryptoKey | Uint8Array } }
    | undefined;
  let loading: Promise<NonNullable<typeof cached>> | undefined;

  const load = async () => {
    const list = await keys.ensure();
    const newest = list[0];
    if (!newest) throw new Error('no signing key');
    const key = await importJWK(newest.privateJwk, 'EdDSA');
    cached = { at: Date.now(), list, signer: { kid: newest._id, key } };
    return cached;
  };
  const current = async () => {
    if (cached && Date.now() - cached.at < KEY_CACHE_MS) return cached;
    loading ??= load().finally(() => {
      loading = undefined;
    });
    return loading;
  };

  return {
    async sign(userId, sessionId, now = Date.now()) {
      const { signer } = await current();
      const iat = Math.floor(now / 1000);
      return new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: 'EdDSA', kid: signer.kid, typ: 'JWT' })
        .setSubject(userId)
        .setIssuedAt(iat)
        .setExpirationTime(iat + SESSION_TOKEN_TTL_SECONDS)
        .sign(signer.key);
    },
    async jwks() {
      const { list } = await current();
      return { keys: list.map((k) => k.publicJwk) };
    },
  };
}
