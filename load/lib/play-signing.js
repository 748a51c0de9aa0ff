// The display's signed proof of play as mf-player's display page makes it (display-keys.ts, play-sender.ts), for the
// load's displays (load/lib/screens-socket.js): a key pair made with WebCrypto, named by its RFC 7638 thumbprint, and
// each batch signed over its place in the key's chain and each record's digest, with the canonical text of
// packages/verify itself (what the page, the screens service and the offline verifier all use).
// A plain ES module that takes the WebCrypto `subtle` it is given: k6's global one in the load, node's in
// tests/boundaries/load-accounting.test.ts, which checks it against the page's sender and the service's check.
// k6 (v1.8.1) has neither btoa nor TextEncoder, hence the encoders below; nor Ed25519 (generateKey answers
// NotSupportedError), so the keys are ECDSA P-256: the page's own choice on a browser without Ed25519. Its JWK export
// drops a coordinate's leading zero bytes (24 keys in 3,000 had a 31-byte x or y), which the service's contract
// refuses (32 bytes, as RFC 7518 and every browser write them): each coordinate is written back at its full length.
import { batchText, recordText, thumbprintText } from '../../packages/verify/src/canonical.js';

/** @param {string} text @returns {Uint8Array} its UTF-8 bytes */
export function utf8(text) {
  const out = [];
  for (const ch of text) {
    const c = ch.codePointAt(0);
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return new Uint8Array(out);
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** @param {ArrayBuffer | Uint8Array} bytes @returns {string} base64url without padding */
export function b64url(bytes) {
  const b = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let s = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    s += B64URL[(n >> 18) & 63] + B64URL[(n >> 12) & 63];
    if (i + 1 < b.length) s += B64URL[(n >> 6) & 63];
    if (i + 2 < b.length) s += B64URL[n & 63];
  }
  return s;
}

/** @param {string} text base64url @returns {Uint8Array} */
export function fromB64url(text) {
  const bytes = [];
  let bits = 0;
  let n = 0;
  for (const ch of text) {
    n = (n << 6) | B64URL.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((n >> bits) & 255);
    }
  }
  return new Uint8Array(bytes);
}

/** A JWK coordinate at its full length (`size` bytes, leading zeros written). @param {string} coordinate */
export function fullLength(coordinate, size = 32) {
  const b = fromB64url(coordinate);
  if (b.length >= size) return coordinate;
  const out = new Uint8Array(size);
  out.set(b, size - b.length);
  return b64url(out);
}

/** An exported P-256 JWK reduced to the members that make the public key, each coordinate at its full length. */
const publicJwk = (full) => ({ kty: 'EC', crv: 'P-256', x: fullLength(full.x), y: fullLength(full.y) });

/** @param {SubtleCrypto} subtle @param {string} text */
export const sha256 = async (subtle, text) => b64url(await subtle.digest('SHA-256', utf8(text)));

/**
 * A display's key pair, as the page's makeDisplayKey on a browser without Ed25519: ECDSA P-256, the private half not
 * extractable, the public half's JWK reduced to the members that make the key.
 * @param {SubtleCrypto} subtle
 */
export async function makeDisplayKey(subtle) {
  const pair = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const jwk = publicJwk(await subtle.exportKey('jwk', pair.publicKey));
  return { keyId: await sha256(subtle, thumbprintText(jwk)), alg: 'ES256', jwk, privateKey: pair.privateKey };
}

/**
 * A display's key pair made by the load's pairing (load/lib/pair-screens.mjs, node's WebCrypto): the public JWK the
 * pairing poll binds, as the page's poll does, and its private scalar, written to the screens file for k6 to import
 * at the display's boot (the page keeps its key in IndexedDB from its pairing on).
 * @param {SubtleCrypto} subtle
 */
export async function makeStoredDisplayKey(subtle) {
  const pair = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const full = await subtle.exportKey('jwk', pair.privateKey);
  return { jwk: publicJwk(full), d: fullLength(full.d) };
}

/**
 * The display's key from its stored form (makeStoredDisplayKey), as makeDisplayKey answers it: the private half not
 * extractable.
 * @param {SubtleCrypto} subtle
 * @param {{ jwk: { kty: 'EC', crv: 'P-256', x: string, y: string }, d: string }} stored
 */
export async function importDisplayKey(subtle, stored) {
  const { jwk } = stored;
  const privateKey = await subtle.importKey(
    'jwk',
    { ...jwk, d: stored.d },
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['sign'],
  );
  return { keyId: await sha256(subtle, thumbprintText(jwk)), alg: 'ES256', jwk, privateKey };
}

/**
 * The encoders a batch's signing uses: `digest(text)` its SHA-256 in base64url, `utf8(text)` its bytes, `b64url(bytes)`.
 * These are the plain ones (node, the tests); k6 passes its native ones (load/lib/screens-socket.js): goja runs the
 * loops above many times slower than Go, and at thousands of displays the load generator's core was the limit.
 * @param {SubtleCrypto} subtle
 */
export const plainCodec = (subtle) => ({ digest: (text) => sha256(subtle, text), utf8, b64url });

/**
 * One batch signed after `after` (where the key's chain stands: `{ seq, hash }`, `{ 0, '' }` for a new key), as the
 * page's play-sender signs it: the body sent (`{ plays, signed }`) and the batch's hash (the chain's head once the
 * service has it).
 * @param {SubtleCrypto} subtle
 * @param {{ keyId: string, privateKey: CryptoKey }} key
 * @param {{ seq: number, hash: string }} after
 * @param {Array<{ id: string, fileId: string, page: number, startedAt: string, seconds: number }>} plays
 * @param {string} sentAt ISO date: when it was signed, on the display's clock
 * @param {{ digest(text: string): string | Promise<string>, utf8(text: string): ArrayBuffer | Uint8Array, b64url(bytes: ArrayBuffer | Uint8Array): string }} [codec]
 */
export async function signBatch(subtle, key, after, plays, sentAt, codec = plainCodec(subtle)) {
  const header = { key: key.keyId, seq: after.seq + 1, prev: after.hash, sentAt };
  const records = await Promise.all(plays.map((p) => codec.digest(recordText(p))));
  const text = batchText({ ...header, records });
  const signature = codec.b64url(
    await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key.privateKey, codec.utf8(text)),
  );
  return { body: { plays, signed: { ...header, signature } }, hash: await codec.digest(text) };
}
