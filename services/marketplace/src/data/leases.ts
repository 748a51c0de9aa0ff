import { isDuplicateKeyError } from '@pagecast/service-kit';
import type { Models } from './models';

/**
 * Run-once across instances: a job takes the lease of its time slot by inserting `<job>:<slot>`; only one insert
 * succeeds (FerretDB has no atomic conditional update). Old leases are removed by the winner.
 */
export function createLeases({ leases }: Models) {
  return {
    async take(job: string, slot: number, holder: string): Promise<boolean> {
      try {
        await leases.create({ _id: `${job}:${slot}`, holder, at: new Date() });
      } catch (err) {
        if (isDuplicateKeyError(err)) return false;
        throw err;
      }
      await leases.deleteMany({ at: { $lt: new Date(Date.now() - 3600_000) } });
      return true;
    },
  };
}
export type Leases = ReturnType<typeof createLeases>;
