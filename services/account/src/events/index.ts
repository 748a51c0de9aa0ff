import type { ServiceContext } from '../context';
import { consumeAlertTakeovers } from './alert-takeovers';
import { consumeAuditEntries } from './audit-log';
import { consumeBillingEvents } from './billing-consumers';
import { consumeProposals } from './proposals';
import { consumeScreenAlerts } from './screen-alerts';

export interface RunningConsumer {
  stop(): Promise<void>;
}

/** The durable's name: one per database, so test runs with their own database do not share a consumer. */
export function durableName(dbName: string): string {
  return dbName === 'pagecast_account' ? 'account' : `account-${dbName.replace(/[^\w-]/g, '_')}`;
}

/** Starts this service's JetStream consumers. Publishing of account.* events goes through `context.outbox`. */
export async function startConsumers(context: ServiceContext): Promise<RunningConsumer[]> {
  const billing = await consumeBillingEvents({
    js: context.nats.js,
    durable: `${durableName(context.dbName)}-billing`,
    users: context.data.users,
    logger: context.logger,
    deliver: context.config.BILLING_EVENTS_FROM,
  });
  const screenAlerts = await consumeScreenAlerts({
    js: context.nats.js,
    durable: `${durableName(context.dbName)}-screen-alerts`,
    users: context.data.users,
    claims: context.data.claims,
    mailer: context.mailer,
    publicUrl: context.config.PUBLIC_URL,
    logger: context.logger,
  });
  const alertTakeovers = await consumeAlertTakeovers({
    js: context.nats.js,
    durable: `${durableName(context.dbName)}-alert-takeovers`,
    users: context.data.users,
    claims: context.data.claims,
    mailer: context.mailer,
    publicUrl: context.config.PUBLIC_URL,
    logger: context.logger,
  });
  const audit = await consumeAuditEntries({
    js: context.nats.js,
    durable: `${durableName(context.dbName)}-audit`,
    auditLog: context.data.auditLog,
    logger: context.logger,
    deliver: context.config.AUDIT_EVENTS_FROM,
  });
  const proposals = await consumeProposals({
    js: context.nats.js,
    durable: `${durableName(context.dbName)}-proposals`,
    data: context.data,
    mailer: context.mailer,
    publicUrl: context.config.PUBLIC_URL,
    logger: context.logger,
  });
  return [billing, screenAlerts, alertTakeovers, audit, proposals];
}
