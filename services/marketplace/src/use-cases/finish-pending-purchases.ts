import type { ServiceContext } from '../context';
import { settlePurchase } from './settle-purchase';

/** Purchases a crash left pending: billing says whether the points moved; the licence follows, or nothing does. */
export async function finishPendingPurchases(ctx: ServiceContext): Promise<{ completed: number; abandoned: number }> {
  // the service's clock, as purchases record their time with it (a test moves it forward)
  const before = new Date(ctx.clock.now().getTime() - ctx.config.PURCHASE_SWEEP_AFTER_MS);
  const out = { completed: 0, abandoned: 0 };
  for (const p of await ctx.data.purchases.pendingOlderThan(before)) {
    const settled = await settlePurchase(ctx, p, { mode: 'ask' });
    if (settled.state === 'completed') out.completed++;
    else if (settled.state === 'abandoned') out.abandoned++;
  }
  return out;
}
