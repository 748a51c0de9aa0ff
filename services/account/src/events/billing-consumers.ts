import { type AnyEvent, subjects } from '@pagecast/contracts';
import { consume, type JetStreamClient, type Logger } from '@pagecast/service-kit';
import type { UserRepository } from '../data';

/**
 * Keeps account's copy of points and tier current from billing's events. Both carry absolute values and are
 * applied only when not older than what is stored, so redelivery and reordering are harmless.
 */
export function consumeBillingEvents(opts: {
  js: JetStreamClient;
  durable: string;
  users: UserRepository;
  logger: Logger;
  deliver: 'all' | 'new';
}) {
  const { users, logger } = opts;
  return consume(opts.js, {
    stream: 'BILLING',
    durable: opts.durable,
    deliver: opts.deliver,
    subjects: [subjects.pointsChanged, subjects.membershipChanged],
    logger,
    handler: async (envelope) => {
      const event = envelope as AnyEvent;
      const at = new Date(event.occurredAt);
      // An unknown user (another database's, or one deleted) matches nothing: acknowledged and ignored.
      if (event.type === subjects.pointsChanged) {
        await users.applyPoints(event.data.userId, event.data.balance, at);
      } else if (event.type === subjects.membershipChanged) {
        await users.applyMembership(event.data.userId, event.data, at);
      }
    },
  });
}
