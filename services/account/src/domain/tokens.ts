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
