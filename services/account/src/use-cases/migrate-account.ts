import { constants, type MigrateAccountRequest } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import { hashPassword, toCurrentUser } from '../domain';
import type { AccountDeps } from './deps';
import { announceMigration, mustFindUser } from './shared';

/**
 * Once per account: the first call claims the migration (an insert), so a concurrent or repeated call can
 * neither set another password nor grant the bonus again.
 */
export async function migrateAccount(deps: AccountDeps, userId: string, input: MigrateAccountRequest) {
  const { data } = deps;
  const before = await mustFindUser(deps, userId);
  if (before.authProvider !== 'external') {
    // A retry after a crash between the update and the event: publish it now (same id, so at most once).
    if (before.migratedAt) await announceMigration(deps, before);
    throw new AppError('NOT_MIGRATABLE');
  }
  const claimId = `migration:${userId}`;
  const passwordHash = await hashPassword(input.password);
  if (!(await data.claims.claim(claimId, { data: { passwordHash } }))) {
    // Another call claimed it. If that one died before finishing (a minute on), finish it with its password.
    const claim = await data.claims.get(claimId);
    const stale = claim && Date.now() - claim.at.getTime() > 60_000;
    const hashOfClaim = claim?.data?.passwordHash;
    if (!stale || typeof hashOfClaim !== 'string') throw new AppError('NOT_MIGRATABLE');
    const finished = await data.users.migrate(userId, hashOfClaim, claim.at);
    if (finished) await announceMigration(deps, finished);
    throw new AppError('NOT_MIGRATABLE');
  }
  const bonus = constants.migrationBonusPoints;
  const user = await data.users.migrate(userId, passwordHash, deps.clock.now());
  if (!user) throw new AppError('NOT_MIGRATABLE');
  await announceMigration(deps, user);
  return { migrationBonus: bonus, user: toCurrentUser(user) };
}
