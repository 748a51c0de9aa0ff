// Signed proof of play: what a display sends to be believed without taking the service's word. The canonical form
// (what is signed, how a key is named) lives in @pagecast/verify, the package a seller or buyer runs offline, so the
// display, the service and the verifier all use the very same code; it is re-exported here as the contract.
import { z } from 'zod';
import { IsoDateTime } from '../validation';

export {
  BATCH_KIND,
  BATCH_VERSION,
  batchText,
  canonicalJson,
  PROOF_FORMAT,
  PROOF_VERSION,
  recordText,
  thumbprintText,
} from '@pagecast/verify/canonical';
/** The fields of a play record that a display signs (its record text's). */
export type { SignedRecordFields } from '@pagecast/verify/canonical';

/** base64url of a 32-byte value (an Ed25519 key, a P-256 coordinate, a SHA-256) */
const B64_32 = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'validation.invalid');

/**
 * A display's public key as WebCrypto exports it (JWK), only the members that make the key: Ed25519, or ECDSA P-256
 * where the browser lacks Ed25519. Its private half never leaves the display (made non-extractable).
 */
export const DisplayPublicKey = z.discriminatedUnion('kty', [
  z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: B64_32 }),
  z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: B64_32, y: B64_32 }),
]);
export type DisplayPublicKey = z.infer<typeof DisplayPublicKey>;
export type SignatureAlg = 'Ed25519' | 'ES256';
export const signatureAlgOf = (jwk: DisplayPublicKey): SignatureAlg => (jwk.kty === 'OKP' ? 'Ed25519' : 'ES256');

/**
 * How a signed batch says where it stands: its key (the key's RFC 7638 thumbprint), its number in that key's chain
 * (from 1), the hash of the batch before it ('' for the first), when the display signed it, and the signature of
 * `batchText` over these and the SHA-256 of each record (base64url; Ed25519 64 bytes, P-256 r‖s 64 bytes).
 */
export const SignedBatchHeader = z.object({
  key: B64_32,
  seq: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  prev: z.union([z.literal(''), B64_32]),
  sentAt: IsoDateTime,
  signature: z.string().regex(/^[A-Za-z0-9_-]{86}$/, 'validation.invalid'),
});
export type SignedBatchHeader = z.infer<typeof SignedBatchHeader>;

/** Details of PLAY_CHAIN_CONFLICT: where the key's chain stands, so the display signs its batch again after it. */
export const ChainHead = z.object({ seq: z.number().int().nonnegative(), hash: z.string() });
export type ChainHead = z.infer<typeof ChainHead>;

/** POST /api/screens/device/key: a display paired before signing existed binds its key on first use. */
export const RegisterDisplayKeyRequest = z.object({ publicKey: DisplayPublicKey });
export type RegisterDisplayKeyRequest = z.infer<typeof RegisterDisplayKeyRequest>;
export const DisplayKeyResponse = z.object({
  keyId: z.string(),
  /** where the key's chain stands at the service: the display signs its next batch after it */
  head: ChainHead,
});
export type DisplayKeyResponse = z.infer<typeof DisplayKeyResponse>;
