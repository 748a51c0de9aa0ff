import type { ServiceContext } from '../server';

export interface RunningConsumer {
  stop(): Promise<void>;
}

/**
 * Starts this service's JetStream consumers (kit `consume`, durable, ack after the write). None yet: the service's
 * task adds consumers of account.user.registered.v1 / migrated.v1 (opening balances, bonuses); publishers of billing.* events. Publishing goes through `context.outbox`.
 */
export async function startConsumers(_context: ServiceContext): Promise<RunningConsumer[]> {
  return [];
}
