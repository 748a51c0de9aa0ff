import { createClaims } from '@pagecast/service-kit';
import type { ServerOptions } from '@tus/server';
import type mongoose from 'mongoose';

type Locker = Exclude<ServerOptions['locker'], Promise<unknown> | ((...args: never[]) => unknown)>;
type Lock = ReturnType<Locker['newLock']>;

/** A call that holds an upload longer than this (a chunk on a very slow link) may be overtaken by the next. */
const LEASE_MS = 5 * 60_000;
/** How long a call waits for the upload (the client tries again after a 500) */
const WAIT_MS = 30_000;

/** The error the tus library answers a lock it could not take in time with (500: clients try again). */
const lockTimeout = () => Object.assign(new Error('failed to acquire lock before timeout'), { status_code: 500 });

/**
 * The tus calls of one upload, one at a time across instances: a lease in the database (the kit's claims), where
 * the library's own lock is per process. Without it, a client that resumes on one instance while its dropped call
 * is still storing on another reads an offset that then moves (seen as 409s, and the incomplete part merged twice).
 */
export function createUploadLocks(conn: mongoose.Connection) {
  const claims = createClaims(conn, 'upload_locks');
  const locker: Locker = {
    newLock(id: string): Lock {
      let release: (() => void) | undefined;
      let held: Promise<unknown> = Promise.resolve();
      return {
        lock(_signal, _requestRelease) {
          return new Promise<void>((resolve, reject) => {
            held = claims
              .withLease(
                `tus:${id}`,
                () =>
                  new Promise<void>((done) => {
                    release = done;
                    resolve();
                  }),
                { ms: LEASE_MS, waitMs: WAIT_MS, busy: lockTimeout, queue: true },
              )
              .catch(reject);
          });
        },
        async unlock() {
          release?.();
          await held;
        },
      };
    },
  };
  return {
    locker,
    /** Removes ended leases (FerretDB has no TTL indexes). */
    sweep: () => claims.sweepExpired(),
  };
}
export type UploadLocks = ReturnType<typeof createUploadLocks>;
