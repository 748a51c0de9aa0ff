// A display-like client's signing key (what mf-player's display does, features/display/model/play-signer.ts), with
// the platform's WebCrypto: the signed-proof and key-state tests sign their batches with it.
import { batchText, recordText, type SignedRecordFields, thumbprintText } from '@pagecast/contracts';

export const b64 = (bytes: ArrayBuffer) => Buffer.from(bytes).toString('base64url');
export const sha = async (text: string) => b64(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));

/** What the display does (features/display/model/play-signer.ts), with the platform's WebCrypto. */
export async function makeSigner(alg: 'Ed25519' | 'ES256' = 'Ed25519') {
  const params = alg === 'Ed25519' ? { name: 'Ed25519' } : { name: 'ECDSA', namedCurve: 'P-256' };
  const pair = (await crypto.subtle.generateKey(params, false, ['sign', 'verify'])) as CryptoKeyPair;
  const full = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as {
    kty: string;
    crv: string;
    x: string;
    y?: string;
  };
  const jwk =
    full.kty === 'OKP' ? { kty: 'OKP', crv: full.crv, x: full.x } : { kty: 'EC', crv: full.crv, x: full.x, y: full.y };
  const keyId = await sha(thumbprintText(jwk));
  let head = { seq: 0, hash: '' };
  const signAt = async (plays: SignedRecordFields[], seq: number, prev: string, sentAt = new Date().toISOString()) => {
    const records = await Promise.all(plays.map((p) => sha(recordText(p))));
    const text = batchText({ key: keyId, seq, prev, sentAt, records });
    const sig = await crypto.subtle.sign(
      alg === 'Ed25519' ? { name: 'Ed25519' } : { name: 'ECDSA', hash: 'SHA-256' },
      pair.privateKey,
      new TextEncoder().encode(text),
    );
    return { body: { plays, signed: { key: keyId, seq, prev, sentAt, signature: b64(sig) } }, hash: await sha(text) };
  };
  return {
    jwk,
    keyId,
    privateKey: pair.privateKey,
    signAt,
    /** the next batch of the chain */
    async next(plays: SignedRecordFields[]) {
      const signed = await signAt(plays, head.seq + 1, head.hash);
      head = { seq: head.seq + 1, hash: signed.hash };
      return signed.body;
    },
  };
}
export type Signer = Awaited<ReturnType<typeof makeSigner>>;
