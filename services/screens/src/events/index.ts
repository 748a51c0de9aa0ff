import { subjects } from '@pagecast/contracts';
import { consume } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { recordSale } from '../use-cases/sold-plays';

/** Durable names of the read model's consumers (tests delete their own). */
export const consumerNames = (prefix: string) => ({ MARKETPLACE: `${prefix}-sales` });

/**
 * The one read model screens keeps: which files were sold and by whom (marketplace's purchase events), so a seller
 * can see their content's plays on buyers' screens. A new durable delivers the whole stream, so a service that starts
 * with an empty database rebuilds it. What screens announces goes out through the outbox in the use cases.
 */
export async function startConsumers(ctx: ServiceContext): Promise<Array<{ stop(): Promise<void> }>> {
  const names = consumerNames(ctx.config.CONSUMER_PREFIX);
  return [
    await consume(ctx.nats.js, {
      stream: 'MARKETPLACE',
      durable: names.MARKETPLACE,
      subjects: [subjects.purchaseCompleted],
      logger: ctx.logger,
      deliver: ctx.config.EVENTS_DELIVER,
      handler: async (e) => {
        const at = e.data.purchasedAt ? new Date(e.data.purchasedAt) : new Date(e.occurredAt);
        await recordSale(ctx, { fileId: e.data.fileId, sellerId: e.data.sellerId, at });
      },
    }),
  ];
}
