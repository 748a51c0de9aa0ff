// Steps several account use cases take (not operations of their own).
import { constants, subjects } from '@pagecast/contracts';
import { AppError, nameUuid } from '@pagecast/service-kit';
import type { UserRecord } from '../domain';
import type { AccountDeps } from './deps';

export async function mustFindUser(deps: AccountDeps, userId: string): Promise<UserRecord> {
  const user = await deps.data.users.findById(userId);
  if (!user) throw new AppError('UNAUTHORIZED');
  return user;
}

/** Deletes sessions and announces each revocation (the gateway stops accepting their tokens). */
export async function revoke(deps: AccountDeps, userId: string, sids: string[]) {
  const revokedAt = deps.clock.now().toISOString();
  for (const sessionId of sids) await deps.outbox.add(subjects.sessionRevoked, { sessionId, userId, revokedAt });
}

/**
 * A token is used once: the first caller to claim its hash (an insert, atomic on FerretDB) goes on; the
 * claim outlives the token's expiry, after which the token is refused anyway.
 */
export const useToken = async (deps: AccountDeps, hash: string, ttlMs: number) =>
  (await deps.data.claims.claim(`token:${hash}`, { expire: new Date(Date.now() + ttlMs + 3600_000) })) !== null;

/** The migration event has a stable id: republishing it (a retry, a repair) can never grant twice. */
export const announceMigration = (deps: AccountDeps, user: UserRecord) =>
  deps.outbox.add(
    subjects.userMigrated,
    {
      userId: user._id,
      bonusPoints: constants.migrationBonusPoints,
      migratedAt: (user.migratedAt ?? deps.clock.now()).toISOString(),
    },
    { id: nameUuid(`account.user.migrated:${user._id}`, 'v8') },
  );
