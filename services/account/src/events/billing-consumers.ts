import { subjects } from '@pagecast/contracts';
import { consume, eventRoutes, type JetStreamClient, type Logger } from '@pagecast/service-kit';
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
    logger,
    // An unknown user (another database's, or one deleted) matches nothing: acknowledged and ignored.
    ...eventRoutes()
      .on(subjects.pointsChanged, (d, e) => users.applyPoints(d.userId, d.balance, new Date(e.occurredAt)))
      .on(subjects.membershipChanged, (d, e) => users.applyMembership(d.userId, d, new Date(e.occurredAt))),
  });
}
