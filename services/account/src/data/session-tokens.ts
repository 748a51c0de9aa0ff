import { createPrivateKey, type JsonWebKey, type KeyObject, sign } from 'node:crypto';
import { SESSION_TOKEN_TTL_SECONDS } from '@pagecast/contracts';
import type { JWK } from 'jose';
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
    | { at: number; list: SigningKeyRecord[]; signer: { kid: string; key: KeyObject; header: string } }
    | undefined;
  let loading: Promise<NonNullable<typeof cached>> | undefined;

  const load = async () => {
    const list = await keys.ensure();
    const newest = list[0];
    if (!newest) throw new Error('no signing key');
    const key = createPrivateKey({ key: newest.privateJwk as JsonWebKey, format: 'jwk' });
    const header = b64json({ alg: 'EdDSA', kid: newest._id, typ: 'JWT' });
    cached = { at: Date.now(), list, signer: { kid: newest._id, key, header } };
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
    // Signed here, on the event loop (an Ed25519 signature is about 50 µs), not with jose's SignJWT: jose signs
    // through WebCrypto, whose jobs queue on libuv's thread pool behind the password hashes, so under a burst of
    // logins every token waited for the whole queue of hashes a second time. The same bytes as jose's (Ed25519 is
    // deterministic; a test compares them), verified by the gateway with jose.
    async sign(userId, sessionId, now = Date.now()) {
      const { signer } = await current();
      const iat = Math.floor(now / 1000);
      const input = `${signer.header}.${b64json({ sid: sessionId, sub: userId, iat, exp: iat + SESSION_TOKEN_TTL_SECONDS })}`;
      return `${input}.${sign(null, Buffer.from(input), signer.key).toString('base64url')}`;
    },
    async jwks() {
      const { list } = await current();
      return { keys: list.map((k) => k.publicJwk) };
    },
  };
}

const b64json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
