import type { Config } from '../config';
import type { BillingClient } from './billing';

/** Placeholder until billing's transfer call lands in packages/contracts (api/transfers.ts). */
export function createBillingClient(_config: Config): BillingClient {
  const unavailable = async (): Promise<never> => {
    throw new Error('billing transfer call not wired yet');
  };
  return { transfer: unavailable, lookup: unavailable };
}
