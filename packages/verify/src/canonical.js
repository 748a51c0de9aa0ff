// The canonical form of everything a display signs, shared by the display (browser), the screens service and the
// offline verifier: it imports nothing, so each can load it as is. Canonical JSON is RFC 8785 (JCS) for the values
// used here: object keys sorted by UTF-16 code units, no whitespace, strings and numbers as ECMAScript's
// JSON.stringify writes them; undefined members are left out, anything else JSON cannot hold is refused.

/** What a signed batch says it is, so a signature over it means nothing anywhere else. */
export const BATCH_KIND = 'pagecast-play-batch';
export const BATCH_VERSION = 1;
/** What a proof file says it is. */
export const PROOF_FORMAT = 'pagecast-proof';
export const PROOF_VERSION = 1;
/** The signature algorithms a display may use: Ed25519, else ECDSA P-256 with SHA-256 (IEEE P1363 r‖s). */
export const SIGNATURE_ALGS = ['Ed25519', 'ES256'];

/** @param {unknown} value */
export function canonicalJson(value) {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('canonical JSON holds finite numbers only');
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
      const obj = /** @type {Record<string, unknown>} */ (value);
      const keys = Object.keys(obj)
        .filter((k) => obj[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
    }
    default:
      throw new TypeError(`canonical JSON cannot hold ${typeof value}`);
  }
}

/**
 * The signed fields of a play record, and nothing else (a record that gains a field later is still signed the same).
 * A video's record also signs the second it reached; absent, it is left out, so a page's record (and every record
 * made before videos) reads the same text as before.
 * @param {{ id: string, fileId: string, page: number, startedAt: string, seconds: number, reachedSecond?: number }} r
 */
export const recordText = (r) =>
  canonicalJson({
    id: r.id,
    fileId: r.fileId,
    page: r.page,
    startedAt: r.startedAt,
    seconds: r.seconds,
    reachedSecond: r.reachedSecond,
  });

/**
 * The bytes a display signs for one batch (as UTF-8): its key, its place in the key's chain (sequence number from 1
 * and the previous batch's hash, '' for the first), when it was signed on the display's clock, and the SHA-256 of
 * each record's canonical text (base64url, in the order sent), so a proof may show some records of a batch and only
 * the digests of the others.
 * @param {{ key: string, seq: number, prev: string, sentAt: string, records: string[] }} b
 */
export const batchText = (b) =>
  canonicalJson({
    kind: BATCH_KIND,
    v: BATCH_VERSION,
    key: b.key,
    seq: b.seq,
    prev: b.prev,
    sentAt: b.sentAt,
    records: b.records,
  });

/**
 * The members of a public JWK that name the key (RFC 7638): its id is the base64url SHA-256 of this text.
 * @param {{ kty: string, crv: string, x: string, y?: string }} jwk
 */
export const thumbprintText = (jwk) =>
  jwk.kty === 'EC'
    ? canonicalJson({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })
    : canonicalJson({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
