import { subjects } from '@pagecast/contracts';
import { consume, eventRoutes } from '@pagecast/service-kit';
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
    logger: ctx.logger,
    deliver: ctx.config.EVENTS_DELIVER,
    ...eventRoutes()
      .on(subjects.userRegistered, (d) => openAccount(ctx, d))
      .on(subjects.userMigrated, (d) => grantMigrationBonus(ctx, d)),
  });
  return [account];
}
