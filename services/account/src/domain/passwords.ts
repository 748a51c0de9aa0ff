import { randomBytes } from 'node:crypto';
import { createHashWorkers, HashingUnavailable, type HashWorkers } from './hash-workers';
import { ARGON2_PARAMS } from './rules';

// argon2id (@node-rs/argon2's default algorithm) on threads of its own, one per core: see hash-workers.ts. Started
// at the first hash, so a process that never hashes starts none.
let workers: HashWorkers | undefined;
const hashing = () => {
  workers ??= createHashWorkers();
  return workers;
};

export function hashPassword(password: string): Promise<string> {
  return hashing().hash(password, ARGON2_PARAMS);
}

function verifyHash(storedHash: string, password: string): Promise<boolean> {
  return hashing().verify(storedHash, password);
}

/** Password hashes asked for and not yet answered (logins, registrations and password changes in progress). */
export function passwordHashesInProgress(): number {
  return workers ? workers.running + workers.waiting : 0;
}

/** Lets the hashes asked for finish, then ends the threads (the service's close). */
export async function closePasswordHashing(): Promise<void> {
  const closing = workers;
  workers = undefined;
  await closing?.close();
}

let dummy: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. Without a hash (unknown e-mail, account without password) it checks
 * against a throw-away hash of the same cost, so the answer takes as long as for a wrong password. A stored hash
 * that cannot be read is a wrong password; a hash that could not run at all (HashingUnavailable) is an error, not a
 * failed guess.
 */
export async function verifyPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  const answer = (checking: Promise<boolean>) =>
    checking.catch((err) => {
      if (err instanceof HashingUnavailable) throw err;
      return false;
    });
  if (!storedHash) {
    dummy ??= hashPassword(randomBytes(16).toString('hex')).catch((err) => {
      dummy = undefined;
      throw err;
    });
    await answer(verifyHash(await dummy, password));
    return false;
  }
  return answer(verifyHash(storedHash, password));
}
