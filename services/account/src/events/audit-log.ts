import { type AuditEntry, type Subject, subjects } from '@pagecast/contracts';
import { consume, type JetStreamClient, type Logger } from '@pagecast/service-kit';
import type { AuditLogRepository } from '../data';

/** Every service's audit subject: the one durable below reads them all, in the stream's order. */
export const AUDIT_SUBJECTS = [
  subjects.auditFiles,
  subjects.auditScreens,
  subjects.auditAccount,
  subjects.auditBilling,
  subjects.auditMarketplace,
] as const satisfies readonly Subject[];

/**
 * Chains the services' audit entries into `audit_log`. One durable consumer with one message in flight across all
 * replicas (max_ack_pending 1), so entries are chained in the order they were published; a redelivered entry is
 * acknowledged without a second row (append answers 'duplicate'). A failing write is retried with the kit's growing
 * delay (up to 50 times, about an hour) while the entries behind it wait, rather than being chained out of order.
 */
export function consumeAuditEntries(opts: {
  js: JetStreamClient;
  durable: string;
  auditLog: AuditLogRepository;
  logger: Logger;
  deliver: 'all' | 'new';
}) {
  const { auditLog, logger } = opts;
  return consume(opts.js, {
    stream: 'AUDIT',
    durable: opts.durable,
    deliver: opts.deliver,
    logger,
    subjects: [...AUDIT_SUBJECTS],
    maxAckPending: 1,
    handler: async (event) => {
      const outcome = await auditLog.append(event.data as AuditEntry);
      if (outcome === 'duplicate') logger.debug({ id: event.id }, 'audit entry already chained');
    },
  });
}
