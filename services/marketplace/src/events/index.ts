import type { ServiceContext } from '../server';

export interface RunningConsumer {
  stop(): Promise<void>;
}

/**
 * Starts this service's JetStream consumers (kit `consume`, durable, ack after the write). None yet: the service's
 * task adds consumers of files.file.* (listings) and account events; publishers of marketplace.* events. Publishing goes through `context.outbox`.
 */
export async function startConsumers(_context: ServiceContext): Promise<RunningConsumer[]> {
  return [];
}
