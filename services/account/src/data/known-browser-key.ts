import { createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import type { Claims } from '@pagecast/service-kit';
import { KNOWN_BROWSER_KEY_BYTES } from '../domain';

const CLAIM_ID = 'key:known-browser';

/**
 * The key that signs known-browser cookies (domain/known-browser.ts), shared by every replica through the database
 * like the session-signing keys: the first replica to start stores one (a claim: an insert under a unique _id, so
 * replicas starting together agree on the first), every replica reads it once at start and checks cookies without
 * a database read.
 */
export async function loadKnownBrowserKey(claims: Claims): Promise<KeyObject> {
  await claims.claim(CLAIM_ID, { data: { key: randomBytes(KNOWN_BROWSER_KEY_BYTES).toString('base64url') } });
  const stored = (await claims.get(CLAIM_ID))?.data?.key;
  const key = typeof stored === 'string' ? Buffer.from(stored, 'base64url') : undefined;
  if (!key || key.length !== KNOWN_BROWSER_KEY_BYTES) throw new Error('the known-browser key in claims is unreadable');
  return createSecretKey(key);
}
