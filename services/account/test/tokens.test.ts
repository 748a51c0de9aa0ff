import { hash } from '@node-rs/argon2';
import { SESSION_TOKEN_TTL_SECONDS } from '@pagecast/contracts';
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createSessionTokens } from '../src/data/session-tokens';
import type { SigningKeyRecord, SigningKeyRepository } from '../src/data/signing-keys';

async function keyRecord(): Promise<SigningKeyRecord> {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const kid = 'k1-test';
  return {
    _id: kid,
    generation: 1,
    alg: 'EdDSA',
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' },
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'EdDSA' },
    createdAt: new Date(),
  };
}
const repository = (record: SigningKeyRecord) => ({ ensure: async () => [record] }) as unknown as SigningKeyRepository;

describe('session tokens', () => {
  it("are jose's bytes for the same claims, and verify with the published key", async () => {
    const record = await keyRecord();
    const now = Date.UTC(2026, 10, 24, 8, 0, 0);
    const token = await createSessionTokens(repository(record)).sign('user-1', 'session-1', now);
    const iat = Math.floor(now / 1000);
    const expected = await new SignJWT({ sid: 'session-1' })
      .setProtectedHeader({ alg: 'EdDSA', kid: record._id, typ: 'JWT' })
      .setSubject('user-1')
      .setIssuedAt(iat)
      .setExpirationTime(iat + SESSION_TOKEN_TTL_SECONDS)
      .sign(await importJWK(record.privateJwk, 'EdDSA'));
    const { payload, protectedHeader } = await jwtVerify(token, await importJWK(record.publicJwk, 'EdDSA'), {
      currentDate: new Date(now),
    });
    expect(protectedHeader).toEqual({ alg: 'EdDSA', kid: record._id, typ: 'JWT' });
    expect(payload).toEqual({ sub: 'user-1', sid: 'session-1', iat, exp: iat + SESSION_TOKEN_TTL_SECONDS });
    // the same claims in the same order, and Ed25519 is deterministic: the same token
    expect(token).toBe(expected);
  });

  it('are signed while the thread pool is busy with password hashes (they do not queue behind them)', async () => {
    const tokens = createSessionTokens(repository(await keyRecord()));
    await tokens.sign('warm', 'up');
    // More slow hashes than libuv has threads: anything queued on the pool waits for them.
    let hashesDone = 0;
    const hashes = Array.from({ length: 8 }, () =>
      hash('x', { memoryCost: 65536, timeCost: 3, parallelism: 1 }).then(() => {
        hashesDone += 1;
      }),
    );
    await tokens.sign('user-1', 'session-1');
    const doneWhenSigned = hashesDone;
    await Promise.all(hashes);
    expect(doneWhenSigned).toBeLessThan(4);
  });
});
