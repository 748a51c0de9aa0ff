import { isDuplicateKeyError } from '@pagecast/service-kit';
import type { Models } from './models';

/** Files that were bought, by seller: written once per file from marketplace's purchase events (redeliveries too). */
export function createSoldFileRepository({ soldFiles }: Models) {
  return {
    async record(fileId: string, sellerId: string, at: Date): Promise<void> {
      try {
        await soldFiles.create({ _id: fileId, sellerId, at });
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    },
    async filesOf(sellerId: string): Promise<string[]> {
      const rows = await soldFiles.find({ sellerId }, { _id: 1 }).lean<Array<{ _id: string }>>();
      return rows.map((r) => r._id);
    },
  };
}
export type SoldFileRepository = ReturnType<typeof createSoldFileRepository>;
