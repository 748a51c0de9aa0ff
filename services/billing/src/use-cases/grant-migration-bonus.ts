import type { ServiceContext } from '../context';
import { postEntry } from './post-entry';

/** account.user.migrated.v1: the 100-point migration bonus, once per member (key `migration:<id>`). */
export async function grantMigrationBonus(ctx: ServiceContext, e: { userId: string; bonusPoints: number }) {
  await postEntry(ctx, {
    accountId: e.userId,
    amount: e.bonusPoints,
    type: 'earn',
    reason: { kind: 'migrationBonus' },
    key: `migration:${e.userId}`,
  });
}
