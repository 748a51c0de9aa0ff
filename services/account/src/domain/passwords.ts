import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { ARGON2_PARAMS } from './rules';

// @node-rs/argon2's default algorithm is argon2id; hashing runs on libuv's thread pool, off the event loop.
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_PARAMS);
}

let dummy: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. Without a hash (unknown e-mail, account without password) it checks
 * against a throw-away hash of the same cost, so the answer takes as long as for a wrong password.
 */
export async function verifyPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    dummy ??= hashPassword(randomBytes(16).toString('hex'));
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
