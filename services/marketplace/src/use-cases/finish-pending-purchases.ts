import type { ServiceContext } from '../context';
import { settlePurchase } from './settle-purchase';

/** Purchases a crash left pending: billing says whether the points moved; the licence follows, or nothing does. */
export async function finishPendingPurchases(ctx: ServiceContext): Promise<{ completed: number; abandoned: number }> {
  const before = new Date(Date.now() - ctx.config.PURCHASE_SWEEP_AFTER_MS);
  const out = { completed: 0, abandoned: 0 };
  for (const p of await ctx.data.purchases.pendingOlderThan(before)) {
    const settled = await settlePurchase(ctx, p, { mode: 'ask' });
    if (settled.state === 'completed') out.completed++;
    else if (settled.state === 'abandoned') out.abandoned++;
  }
  return out;
}
