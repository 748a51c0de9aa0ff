export { BATCH_KIND, PROOF_FORMAT, PROOF_VERSION } from './canonical';

export interface Finding {
  /** stable: format, key-invalid, key-id, batch-invalid, batch-key, batch-signature, chain-fork, chain-broken,
   * chain-gap, after-revocation, before-key, record-invalid, record-batch, record-altered, record-repeated,
   * record-file, record-period, arrived-late, arrived-after-gap */
  code: string;
  message: string;
  key?: unknown;
  seq?: unknown;
  record?: unknown;
}
export interface VerificationSummary {
  scope?: { kind: unknown; fileId: string; from: string; to: string };
  keys: number;
  batches: number;
  /** signed records of the file in the period, and the seconds they claim */
  records: number;
  seconds: number;
  /** of those, what the service says it counted (its note, not signed by the displays) and refused */
  counted: number;
  countedSeconds: number;
  refused: number;
}
export interface Verification {
  /** every signature, digest, key and date holds */
  ok: boolean;
  /** ok, and no key's chain has a missing batch */
  complete: boolean;
  summary: VerificationSummary;
  failures: Finding[];
  gaps: Finding[];
  notes: Finding[];
}
export declare function sha256(text: string): string;
export declare function verifyBatchSignature(alg: string, jwk: unknown, text: string, signature: string): boolean;
export declare function verifyProof(proof: unknown): Verification;
