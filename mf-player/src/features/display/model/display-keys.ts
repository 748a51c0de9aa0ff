// The display's signing key (signed proof of play): made with WebCrypto at pairing, its private half
// non-extractable, kept in IndexedDB (a CryptoKey is structured-cloneable: it is stored, never exported). One key is
// 'pending' while a code is shown (sent with each poll, bound by the poll that hands out the credential), then
// 'current' for its screen. Pairing again makes a new one: keys rotate with pairings.
import { type DisplayPublicKey, thumbprintText } from '@pagecast/contracts';

export interface DisplayKey {
  /** the key's RFC 7638 thumbprint: what the service calls it */
  keyId: string;
  alg: 'Ed25519' | 'ES256';
  jwk: DisplayPublicKey;
  privateKey: CryptoKey;
  /** the screen it was confirmed for ('current' only) */
  screenId?: string;
}

/** Where keys are kept: IndexedDB on a display, a map in tests. */
export interface KeyStore {
  get(name: 'pending' | 'current'): Promise<DisplayKey | undefined>;
  put(name: 'pending' | 'current', key: DisplayKey): Promise<void>;
  delete(name: 'pending' | 'current'): Promise<void>;
}

const b64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

export const sha256 = async (subtle: SubtleCrypto, text: string) =>
  b64url(await subtle.digest('SHA-256', new TextEncoder().encode(text)));

/** The platform's WebCrypto, or null where there is none (a page served over plain http to another host). */
export const platformSubtle = (): SubtleCrypto | null => globalThis.crypto?.subtle ?? null;

/** A new key pair: Ed25519 where the browser has it, else ECDSA P-256; the private half cannot be exported. */
export async function makeDisplayKey(subtle: SubtleCrypto): Promise<DisplayKey> {
  let alg: DisplayKey['alg'] = 'Ed25519';
  let pair: CryptoKeyPair;
  try {
    pair = (await subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify'])) as CryptoKeyPair;
  } catch {
    alg = 'ES256';
    pair = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  }
  const full = (await subtle.exportKey('jwk', pair.publicKey)) as { kty: string; crv: string; x: string; y: string };
  const jwk: DisplayPublicKey =
    alg === 'Ed25519' ? { kty: 'OKP', crv: 'Ed25519', x: full.x } : { kty: 'EC', crv: 'P-256', x: full.x, y: full.y };
  return { keyId: await sha256(subtle, thumbprintText(jwk)), alg, jwk, privateKey: pair.privateKey };
}

export async function signText(subtle: SubtleCrypto, key: DisplayKey, text: string): Promise<string> {
  const params = key.alg === 'Ed25519' ? { name: 'Ed25519' } : { name: 'ECDSA', hash: 'SHA-256' };
  return b64url(await subtle.sign(params, key.privateKey, new TextEncoder().encode(text)));
}

/** The key shown with the pairing code: the one kept pending, else a new one (null without WebCrypto). */
export async function pendingKey(store: KeyStore, subtle: SubtleCrypto | null): Promise<DisplayKey | null> {
  if (!subtle) return null;
  const kept = await store.get('pending');
  if (kept) return kept;
  const made = await makeDisplayKey(subtle);
  await store.put('pending', made);
  return made;
}

/**
 * The key of `screenId`: the current one if it is that screen's, else the pending one (the key its pairing poll
 * sent), else a new one (a display paired before it could sign: bound on first use).
 */
export async function keyForScreen(store: KeyStore, subtle: SubtleCrypto, screenId: string): Promise<DisplayKey> {
  const current = await store.get('current');
  if (current?.screenId === screenId) return current;
  const key = { ...((await store.get('pending')) ?? (await makeDisplayKey(subtle))), screenId };
  await store.put('current', key);
  await store.delete('pending');
  return key;
}

/** IndexedDB, one object store of two entries. */
export function indexedDbKeyStore(dbName = 'pagecast-display'): KeyStore {
  let db: Promise<IDBDatabase> | undefined;
  const open = () => {
    db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(dbName, 1);
      req.onupgradeneeded = () => req.result.createObjectStore('keys');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    return db;
  };
  const run = async <T>(mode: IDBTransactionMode, op: (s: IDBObjectStore) => IDBRequest): Promise<T> => {
    const tx = (await open()).transaction('keys', mode);
    return new Promise<T>((resolve, reject) => {
      const req = op(tx.objectStore('keys'));
      tx.oncomplete = () => resolve(req.result as T);
      tx.onerror = () => reject(tx.error);
    });
  };
  return {
    get: (name) => run('readonly', (s) => s.get(name)),
    put: (name, key) => run('readwrite', (s) => s.put(key, name)),
    delete: (name) => run('readwrite', (s) => s.delete(name)),
  };
}

/** Keys in memory (tests, and a browser without IndexedDB: then a reload makes a key the service refuses). */
export function memoryKeyStore(): KeyStore {
  const map = new Map<string, DisplayKey>();
  return {
    get: async (name) => map.get(name),
    put: async (name, key) => {
      map.set(name, key);
    },
    delete: async (name) => {
      map.delete(name);
    },
  };
}

let shared: KeyStore | undefined;
/** The display's key store: IndexedDB where there is one. */
export const displayKeyStore = (): KeyStore => {
  shared ??= typeof indexedDB === 'undefined' ? memoryKeyStore() : indexedDbKeyStore();
  return shared;
};
