// One owner's fleet changes (groups, order, bulk changes, takeovers) one at a time, across instances.
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';

/** How long an instance holds an owner's fleet lease at most (a crashed holder's lease is taken over after it). */
export const FLEET_LEASE_MS = 60_000;
/** How long a change waits for another instance's change of the same owner before answering FLEET_BUSY. */
export const FLEET_LEASE_WAIT_MS = 15_000;

const fleetLease = <T>(ctx: ServiceContext, ownerId: string, fn: () => Promise<T>, queue: boolean) =>
  ctx.data.leases.withLease(`fleet:${ownerId}`, fn, {
    ms: FLEET_LEASE_MS,
    waitMs: FLEET_LEASE_WAIT_MS,
    busy: () => new AppError('FLEET_BUSY'),
    queue,
  });

/**
 * A check (an overlapping takeover, a taken name, the group limit) and the write it guards are never interleaved
 * with another change of the same owner. In this process the callers wait in line; across instances by a lease
 * (`fleet:<owner>`, the kit's lease: an insert under a unique key, the one write FerretDB makes atomic:
 * docs/platform.md), so the limits and the overlap check are exact with any number of replicas. A change that cannot
 * get the lease within FLEET_LEASE_WAIT_MS answers FLEET_BUSY (409).
 */
export const serialByOwner = <T>(ctx: ServiceContext, ownerId: string, fn: () => Promise<T>): Promise<T> =>
  fleetLease(ctx, ownerId, fn, true);

/** The owner's lease alone, without this process's line (two instances in one test process). */
export const withFleetLease = <T>(ctx: ServiceContext, ownerId: string, fn: () => Promise<T>): Promise<T> =>
  fleetLease(ctx, ownerId, fn, false);
