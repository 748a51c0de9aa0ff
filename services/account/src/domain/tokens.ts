import { createHash, randomBytes } from 'node:crypto';
import { TOKEN_BYTES } from './rules';

/** A fresh single-use token: `token` goes into the mail, only `hash` is stored. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A stable UUID (RFC 9562 version 8) for a name, so an event about a one-time fact (a user's migration) always
 * gets the same id: a retry republishes the same message and every de-duplication (outbox, JetStream) holds.
 */
export function stableUuid(name: string): string {
  const b = createHash('sha256').update(name).digest().subarray(0, 16);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x80;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
