export declare const BATCH_KIND: 'pagecast-play-batch';
export declare const BATCH_VERSION: 1;
export declare const PROOF_FORMAT: 'pagecast-proof';
export declare const PROOF_VERSION: 1;
export declare const SIGNATURE_ALGS: readonly ['Ed25519', 'ES256'];
export interface SignedRecordFields {
  id: string;
  fileId: string;
  page: number;
  startedAt: string;
  seconds: number;
  /** a video's record: the second it reached (left out of the text when absent) */
  reachedSecond?: number;
}
export interface SignedBatchFields {
  key: string;
  seq: number;
  prev: string;
  sentAt: string;
  records: string[];
}
export interface PublicJwk {
  kty: string;
  crv: string;
  x: string;
  y?: string;
}
export declare function canonicalJson(value: unknown): string;
export declare function recordText(r: SignedRecordFields): string;
export declare function batchText(b: SignedBatchFields): string;
export declare function thumbprintText(jwk: PublicJwk): string;
