import { isDuplicateKeyError } from '@pagecast/service-kit';
import type { Models, TransferDoc } from './models';

/** Transfer intents: inserted once per transferId before any leg; their state only moves forward. */
export function createTransfers({ transfers }: Models) {
  return {
    /** The intent inserted now, or the one already there (another call, a retry, a crash before). */
    async record(doc: TransferDoc): Promise<{ doc: TransferDoc; created: boolean }> {
      try {
        await transfers.create(doc);
        return { doc, created: true };
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        const existing = await transfers.findById(doc._id).lean<TransferDoc>();
        if (!existing) throw err;
        return { doc: existing, created: false };
      }
    },
    get: (id: string) => transfers.findById(id).lean<TransferDoc>(),
    /** Final state of a started transfer (written under the transfer's lease; same value if written twice). */
    async finish(id: string, fields: Pick<TransferDoc, 'state' | 'code' | 'buyerBalance' | 'appliedAt'>) {
      await transfers.updateOne({ _id: id, state: 'started' }, { $set: fields });
    },
    startedBefore(at: Date, limit = 100) {
      return transfers
        .find({ state: 'started', createdAt: { $lte: at } })
        .limit(limit)
        .lean<TransferDoc[]>();
    },
    all: () => transfers.find({}).lean<TransferDoc[]>(),
  };
}
export type Transfers = ReturnType<typeof createTransfers>;
