import type { ServiceContext } from '../context';

/**
 * Screens consumes no events yet: what it announces (screen changed, screen revoked) goes out through the outbox
 * in the use cases. Kept so the service has the shape of the others when it starts listening (e.g. to licences).
 */
export async function startConsumers(_context: ServiceContext): Promise<Array<{ stop(): Promise<void> }>> {
  return [];
}
