import { type AnyEvent, subjects } from '@pagecast/contracts';
import { consume } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { grantMigrationBonus } from '../use-cases/grant-migration-bonus';
import { openAccount } from '../use-cases/open-account';

export interface RunningConsumer {
  stop(): Promise<void>;
}

/**
 * account.user.registered.v1 → opening entry and first plan; account.user.migrated.v1 → migration bonus. The
 * durable starts at the beginning of account's stream (EVENTS_DELIVER=all), so members who existed before billing
 * are opened by the replay; each handler is idempotent (unique keys), so redeliveries change nothing.
 */
export async function startConsumers(ctx: ServiceContext): Promise<RunningConsumer[]> {
  const account = await consume(ctx.nats.js, {
    stream: 'ACCOUNT',
    durable: `${ctx.config.CONSUMER_PREFIX}-account`,
    subjects: [subjects.userRegistered, subjects.userMigrated],
    logger: ctx.logger,
    deliver: ctx.config.EVENTS_DELIVER,
    handler: async (envelope) => {
      const e = envelope as AnyEvent;
      if (e.type === subjects.userRegistered) await openAccount(ctx, e.data);
      else if (e.type === subjects.userMigrated) await grantMigrationBonus(ctx, e.data);
    },
  });
  return [account];
}
