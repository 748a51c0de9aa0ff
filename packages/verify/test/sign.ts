// A display's signing, done with node's crypto for the verifier's tests: keys, signed batches, a proof file.
import { createHash, generateKeyPairSync, type KeyObject, randomUUID, sign } from 'node:crypto';
import {
  batchText,
  PROOF_FORMAT,
  PROOF_VERSION,
  recordText,
  type SignedRecordFields,
  thumbprintText,
} from '../src/canonical.js';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64url');

export interface TestKey {
  id: string;
  alg: 'Ed25519' | 'ES256';
  jwk: { kty: string; crv: string; x: string; y?: string };
  privateKey: KeyObject;
}

export function makeKey(alg: 'Ed25519' | 'ES256' = 'Ed25519'): TestKey {
  const pair = alg === 'Ed25519' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const full = pair.publicKey.export({ format: 'jwk' }) as { kty: string; crv: string; x: string; y?: string };
  const jwk =
    alg === 'Ed25519' ? { kty: 'OKP', crv: 'Ed25519', x: full.x } : { kty: 'EC', crv: 'P-256', x: full.x, y: full.y };
  return { id: sha(thumbprintText(jwk)), alg, jwk, privateKey: pair.privateKey };
}

export const rec = (fileId: string, startedAt: string, seconds = 10, page = 1): SignedRecordFields => ({
  id: randomUUID(),
  fileId,
  page,
  startedAt,
  seconds,
});

export interface Batch {
  key: string;
  seq: number;
  prev: string;
  sentAt: string;
  records: string[];
  signature: string;
  receivedAt: string;
  hash: string;
  plays: SignedRecordFields[];
}

/** Signs a chain of batches with `key`, one per list of records. */
export function chain(key: TestKey, lists: SignedRecordFields[][], sentAt = '2026-01-02T00:00:00.000Z'): Batch[] {
  let prev = '';
  return lists.map((plays, i) => {
    const fields = { key: key.id, seq: i + 1, prev, sentAt, records: plays.map((p) => sha(recordText(p))) };
    const text = batchText(fields);
    const signature = (
      key.alg === 'Ed25519'
        ? sign(null, Buffer.from(text), key.privateKey)
        : sign('sha256', Buffer.from(text), { key: key.privateKey, dsaEncoding: 'ieee-p1363' })
    ).toString('base64url');
    prev = sha(text);
    return { ...fields, signature, receivedAt: sentAt, hash: prev, plays };
  });
}

/** A proof of `fileId` over the days given, showing every record of that file in the batches. */
export function proofOf(
  fileId: string,
  keys: Array<{ key: TestKey; revokedAt?: string | null; validFrom?: string }>,
  batches: Batch[],
  days = { from: '2026-01-01', to: '2026-01-31' },
) {
  return {
    format: PROOF_FORMAT,
    version: PROOF_VERSION,
    generatedAt: '2026-02-01T00:00:00.000Z',
    scope: { kind: 'owner', fileId, ...days },
    keys: keys.map(({ key, revokedAt = null, validFrom = '2025-12-31T00:00:00.000Z' }) => ({
      id: key.id,
      alg: key.alg,
      jwk: key.jwk,
      validFrom,
      revokedAt,
    })),
    batches: batches.map(({ hash: _h, plays: _p, ...b }) => ({ ...b, arrival: 'in-order' })),
    records: batches.flatMap((b) =>
      b.plays.flatMap((record, index) =>
        record.fileId === fileId
          ? [{ key: b.key, seq: b.seq, index, record, verdict: { counted: record.seconds } }]
          : [],
      ),
    ),
  };
}
