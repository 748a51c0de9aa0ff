import { subjects } from '@pagecast/contracts';
import { consume, eventRoutes } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { applyFileEvent, fileEventSubjects } from '../use-cases/apply-file-event';
import { setMemberTier } from '../use-cases/set-member-tier';

export interface RunningConsumer {
  stop(): Promise<void>;
}

/** Durable names of the read models' consumers (tests delete their own). */
export const consumerNames = (prefix: string) => ({
  FILES: `${prefix}-files`,
  ACCOUNT: `${prefix}-account`,
  BILLING: `${prefix}-billing`,
});

/**
 * The read models this service keeps (durable, ack after the write, idempotent): listings from file-conversion's
 * file events, member tiers from account and billing. A new durable delivers the whole stream, so a service that
 * starts with an empty database rebuilds them.
 */
export async function startConsumers(ctx: ServiceContext): Promise<RunningConsumer[]> {
  const { nats, logger, config } = ctx;
  const deliver = config.EVENTS_DELIVER;
  const names = consumerNames(config.CONSUMER_PREFIX);
  const consumers: RunningConsumer[] = [];
  try {
    consumers.push(
      await consume(nats.js, {
        stream: 'FILES',
        durable: names.FILES,
        ...eventRoutes().on(fileEventSubjects, (_data, e) => applyFileEvent(ctx, e)),
        logger,
        deliver,
      }),
    );
    consumers.push(
      await consume(nats.js, {
        stream: 'ACCOUNT',
        durable: names.ACCOUNT,
        subjects: [subjects.userRegistered],
        logger,
        deliver,
        handler: async (e) => {
          const at = new Date(e.data.registeredAt);
          await setMemberTier(ctx, { userId: e.data.userId, tier: e.data.membershipTier, at, initial: true });
        },
      }),
    );
    consumers.push(
      await consume(nats.js, {
        stream: 'BILLING',
        durable: names.BILLING,
        subjects: [subjects.membershipChanged],
        logger,
        deliver,
        handler: async (e) => {
          const at = new Date(e.occurredAt);
          await setMemberTier(ctx, { userId: e.data.userId, tier: e.data.tier, at, initial: false });
        },
      }),
    );
  } catch (err) {
    await Promise.all(consumers.map((c) => c.stop()));
    throw err;
  }
  return consumers;
}
