// Signed proof of play: what a display signs and how a key is named, with the verifier's own code (packages/verify),
// so the service accepts exactly what `pagecast-verify` will.
import { createPublicKey } from 'node:crypto';
import {
  batchText,
  type DisplayPublicKey,
  type PlayRecord,
  recordText,
  type SignedBatchHeader,
  thumbprintText,
} from '@pagecast/contracts';
import { sha256, verifyBatchSignature } from '@pagecast/verify';

export { sha256, verifyBatchSignature };

/** A key's id: its RFC 7638 thumbprint (base64url SHA-256 of its canonical members). */
export const keyIdOf = (jwk: DisplayPublicKey) => sha256(thumbprintText(jwk));

/** The text a display signed for this batch: its header with each record's digest, in the order sent. */
export const signedTextOf = (header: Omit<SignedBatchHeader, 'signature'>, plays: PlayRecord[]) =>
  batchText({
    key: header.key,
    seq: header.seq,
    prev: header.prev,
    sentAt: header.sentAt,
    records: plays.map((p) => sha256(recordText(p))),
  });

export const recordDigest = (p: PlayRecord) => sha256(recordText(p));

/** Whether the JWK is a public key node can use (a P-256 point off the curve is not), before it is bound for good. */
export function usableKey(jwk: DisplayPublicKey): boolean {
  try {
    createPublicKey({ key: { ...jwk }, format: 'jwk' });
    return true;
  } catch {
    return false;
  }
}
