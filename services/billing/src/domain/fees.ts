import { pricePlanFor } from '@pagecast/contracts';

/** Account that receives the platform's fee: a ledger account like a member's, so every point stays counted. */
export const PLATFORM_ACCOUNT = 'platform';

/** Fee and net of a marketplace price (spec point 9); undefined for a price that is not a publish plan. */
export function transferSplit(price: number): { fee: number; net: number } | undefined {
  const plan = pricePlanFor(price);
  return plan ? { fee: plan.fee, net: plan.net } : undefined;
}
