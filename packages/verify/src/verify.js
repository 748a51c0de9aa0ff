// Verifies a proof-of-play file offline, with node's crypto alone: every key is named by its own thumbprint, every
// batch is signed by its display's key, each shown record is one its batch signed, each key's batches form an
// unbroken chain, and no batch or record is dated after its key's revocation. Nothing in the file is trusted that a
// signature does not cover, but the keys themselves (registered by the service at pairing) and the service's notes
// (when it received a batch, in what order, what it counted), which are reported, never relied upon.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { BATCH_KIND, batchText, PROOF_FORMAT, PROOF_VERSION, recordText, thumbprintText } from './canonical.js';

export { BATCH_KIND, PROOF_FORMAT, PROOF_VERSION };

/** @param {string} text */
export const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('base64url');

const DAY_MS = 86_400_000;
const isString = (v) => typeof v === 'string';
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const time = (v) => (isString(v) ? Date.parse(v) : Number.NaN);

/** @param {any} jwk @param {string} alg */
function publicKeyOf(jwk, alg) {
  if (!isObject(jwk) || !isString(jwk.x)) return null;
  if (alg === 'Ed25519' && jwk.kty === 'OKP' && jwk.crv === 'Ed25519') {
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
  }
  if (alg === 'ES256' && jwk.kty === 'EC' && jwk.crv === 'P-256' && isString(jwk.y)) {
    return createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, format: 'jwk' });
  }
  return null;
}

/** @param {string} alg @param {import('node:crypto').KeyObject} key @param {string} text @param {string} signature */
function signatureHolds(alg, key, text, signature) {
  const sig = Buffer.from(signature, 'base64url');
  const data = Buffer.from(text, 'utf8');
  // WebCrypto's ECDSA signatures are r‖s (IEEE P1363), not DER
  return alg === 'Ed25519'
    ? verify(null, data, key, sig)
    : verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, sig);
}

/** @type {Map<string, import('node:crypto').KeyObject>} */
const imported = new Map();

/**
 * Whether `signature` (base64url) is the signature of `text` by the public key `jwk` with `alg`: the check the
 * screens service makes on each batch as it arrives, the same code as the offline one.
 * @param {string} alg @param {unknown} jwk @param {string} text @param {string} signature
 */
export function verifyBatchSignature(alg, jwk, text, signature) {
  try {
    const name = isObject(jwk) ? `${alg}:${jwk.x}:${jwk.y ?? ''}` : '';
    let key = imported.get(name);
    if (!key) {
      key = publicKeyOf(jwk, alg);
      // a service checks the same displays' keys all day: each imported once (bounded above the largest fleet an
      // instance serves, 10,000 displays: at 10,000 exactly every key was imported again after each clear)
      if (imported.size >= 50_000) imported.clear();
      if (key) imported.set(name, key);
    }
    return key !== null && signatureHolds(alg, key, text, signature);
  } catch {
    return false;
  }
}

/**
 * @param {unknown} proof the parsed file
 * @returns {import('./verify').Verification}
 */
export function verifyProof(proof) {
  /** @type {import('./verify').Finding[]} */
  const failures = [];
  /** @type {import('./verify').Finding[]} */
  const gaps = [];
  /** @type {import('./verify').Finding[]} */
  const notes = [];
  const fail = (code, message, where = {}) => failures.push({ code, message, ...where });
  const summary = { keys: 0, batches: 0, records: 0, seconds: 0, counted: 0, countedSeconds: 0, refused: 0 };
  const done = () => ({
    ok: failures.length === 0,
    complete: failures.length === 0 && gaps.length === 0,
    summary,
    failures,
    gaps,
    notes,
  });

  if (!isObject(proof) || proof.format !== PROOF_FORMAT || proof.version !== PROOF_VERSION) {
    fail('format', `not a ${PROOF_FORMAT} file of version ${PROOF_VERSION}`);
    return done();
  }
  const scope = proof.scope;
  const from = isObject(scope) ? Date.parse(`${scope.from}T00:00:00Z`) : Number.NaN;
  const to = isObject(scope) ? Date.parse(`${scope.to}T00:00:00Z`) + DAY_MS : Number.NaN;
  if (!isObject(scope) || !isString(scope.fileId) || Number.isNaN(from) || Number.isNaN(to) || from >= to) {
    fail('format', 'the scope names no file or no period');
    return done();
  }
  if (!Array.isArray(proof.keys) || !Array.isArray(proof.batches) || !Array.isArray(proof.records)) {
    fail('format', 'keys, batches and records must be lists');
    return done();
  }
  summary.scope = { kind: scope.kind, fileId: scope.fileId, from: scope.from, to: scope.to };

  // keys: each is what its id says (the id is its thumbprint), of a known algorithm
  /** @type {Map<string, { alg: string, key: import('node:crypto').KeyObject, validFrom: number, revokedAt: number | null }>} */
  const keys = new Map();
  for (const k of proof.keys) {
    const id = isObject(k) ? k.id : undefined;
    let key = null;
    try {
      key = isObject(k) ? publicKeyOf(k.jwk, k.alg) : null;
    } catch {
      key = null;
    }
    if (!isString(id) || !key) {
      fail('key-invalid', `key ${String(id)}: not an Ed25519 or P-256 public key`, { key: id });
      continue;
    }
    if (sha256(thumbprintText(k.jwk)) !== id) {
      fail('key-id', `key ${id}: its id is not the thumbprint of its public key`, { key: id });
      continue;
    }
    const validFrom = time(k.validFrom);
    const revokedAt = k.revokedAt === null || k.revokedAt === undefined ? null : time(k.revokedAt);
    if (Number.isNaN(validFrom) || Number.isNaN(revokedAt)) {
      fail('key-invalid', `key ${id}: validity dates are not dates`, { key: id });
      continue;
    }
    keys.set(id, { alg: k.alg, key, validFrom, revokedAt });
  }
  summary.keys = keys.size;

  // batches: signed by their key, within its validity, one per place in the key's chain
  /** @type {Map<string, { hash: string, digests: string[], seq: number, prev: string, arrival: unknown }>} */
  const batches = new Map();
  /** @type {Map<string, number[]>} */
  const seqsOf = new Map();
  for (const b of proof.batches) {
    const where = { key: isObject(b) ? b.key : undefined, seq: isObject(b) ? b.seq : undefined };
    const signer = isObject(b) && isString(b.key) ? keys.get(b.key) : undefined;
    if (
      !isObject(b) ||
      !Number.isSafeInteger(b.seq) ||
      b.seq < 1 ||
      !isString(b.prev) ||
      !isString(b.sentAt) ||
      !isString(b.signature) ||
      !Array.isArray(b.records) ||
      !b.records.every(isString)
    ) {
      fail('batch-invalid', 'a batch lacks its key, place, date, signature or record digests', where);
      continue;
    }
    if (!signer) {
      fail('batch-key', `batch ${b.key}#${b.seq}: signed by a key the file does not list (or one it refused)`, where);
      continue;
    }
    const text = batchText({ key: b.key, seq: b.seq, prev: b.prev, sentAt: b.sentAt, records: b.records });
    let holds = false;
    try {
      holds = signatureHolds(signer.alg, signer.key, text, b.signature);
    } catch {
      holds = false;
    }
    if (!holds) {
      fail(
        'batch-signature',
        `batch ${b.key}#${b.seq}: its signature does not hold (altered, or not its key's)`,
        where,
      );
      continue;
    }
    const id = `${b.key}#${b.seq}`;
    const hash = sha256(text);
    const seen = batches.get(id);
    if (seen) {
      if (seen.hash !== hash) fail('chain-fork', `batch ${id}: two different batches hold the same place`, where);
      continue;
    }
    const sentAt = time(b.sentAt);
    const receivedAt = b.receivedAt === undefined ? Number.NaN : time(b.receivedAt);
    if (signer.revokedAt !== null && (sentAt > signer.revokedAt || receivedAt > signer.revokedAt)) {
      fail('after-revocation', `batch ${id}: dated after its key was revoked`, where);
      continue;
    }
    if (receivedAt < signer.validFrom) {
      fail('before-key', `batch ${id}: received before its key was registered`, where);
      continue;
    }
    if (b.arrival === 'late' || b.arrival === 'after-gap') {
      notes.push({
        code: `arrived-${b.arrival}`,
        message: `batch ${id}: the service received it ${b.arrival === 'late' ? 'after a later one' : 'before an earlier one'}`,
        ...where,
      });
    }
    batches.set(id, { hash, digests: b.records, seq: b.seq, prev: b.prev, arrival: b.arrival });
    seqsOf.set(b.key, [...(seqsOf.get(b.key) ?? []), b.seq]);
  }
  summary.batches = batches.size;

  // chains: each batch names the hash of the one before; a place left empty is a batch the file does not hold
  for (const [key, seqs] of seqsOf) {
    seqs.sort((a, b) => a - b);
    for (let i = 1; i < seqs.length; i++) {
      const [a, b] = [seqs[i - 1], seqs[i]];
      const [before, after] = [batches.get(`${key}#${a}`), batches.get(`${key}#${b}`)];
      if (b === a + 1) {
        if (after.prev !== before.hash) {
          fail('chain-broken', `batch ${key}#${b}: does not follow batch ${key}#${a} (not its hash)`, { key, seq: b });
        }
      } else {
        gaps.push({
          code: 'chain-gap',
          message: `key ${key}: batches ${a + 1}${b - a > 2 ? `-${b - 1}` : ''} are missing`,
          key,
          seq: a + 1,
        });
      }
    }
  }

  // records: each is one its batch signed (its digest is in the batch at its place), of the file, in the period
  const ids = new Set();
  for (const r of proof.records) {
    const rec = isObject(r) ? r.record : undefined;
    const where = { key: isObject(r) ? r.key : undefined, seq: isObject(r) ? r.seq : undefined, record: rec?.id };
    if (!isObject(rec) || !isString(rec.id) || !isString(rec.startedAt) || typeof rec.seconds !== 'number') {
      fail('record-invalid', 'a record lacks its fields', where);
      continue;
    }
    const batch = batches.get(`${r.key}#${r.seq}`);
    if (!batch) {
      fail('record-batch', `record ${rec.id}: its batch is not in the file or did not verify`, where);
      continue;
    }
    let text;
    try {
      text = recordText(rec);
    } catch {
      text = '';
    }
    if (!Number.isSafeInteger(r.index) || batch.digests[r.index] !== sha256(text)) {
      fail('record-altered', `record ${rec.id}: not what its batch signed (altered)`, where);
      continue;
    }
    if (ids.has(rec.id)) {
      fail('record-repeated', `record ${rec.id}: shown twice`, where);
      continue;
    }
    ids.add(rec.id);
    const start = time(rec.startedAt);
    if (rec.fileId !== scope.fileId) fail('record-file', `record ${rec.id}: of another file`, where);
    else if (!(start >= from && start < to)) fail('record-period', `record ${rec.id}: outside the period`, where);
    else if (keys.get(r.key)?.revokedAt !== null && start > keys.get(r.key).revokedAt) {
      fail('after-revocation', `record ${rec.id}: starts after its key was revoked`, where);
    } else {
      summary.records += 1;
      summary.seconds += rec.seconds;
      if (isObject(r.verdict) && typeof r.verdict.counted === 'number') {
        summary.counted += 1;
        summary.countedSeconds += r.verdict.counted;
      } else if (isObject(r.verdict) && isString(r.verdict.refused)) summary.refused += 1;
    }
  }
  return done();
}
