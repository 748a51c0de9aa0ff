// The JMA feed poller (packages/alerts) runs on one instance at a time: the one holding the lease `alerts-poller`
// runs it for a lease period, then lets the lease go and tries again with the others (a dead holder's lease is
// taken over when it expires). What it publishes goes to the ALERTS stream, which every instance's consumer reads.
import { startPoller } from '@pagecast/alerts/feed/poller';
import { runPeriodically } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';

/** How long one instance polls before the lease is let go (and most likely taken again by the same one). */
export const POLLER_LEASE_MS = 10 * 60_000;
const POLLER_TRY_MS = 30_000;

export function startAlertPoller(ctx: ServiceContext, urls: string[], intervalMs: number): { stop(): Promise<void> } {
  let stopping: (() => void) | undefined;
  const turn = () =>
    ctx.data.leases.tryLease('alerts-poller', POLLER_LEASE_MS, async () => {
      const poller = startPoller({
        urls,
        fetch: globalThis.fetch,
        intervalMs,
        publish: ctx.data.alerts.publishReport,
      });
      // hold the lease a little less than its length, or until the service stops
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLLER_LEASE_MS - POLLER_TRY_MS);
        stopping = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      await poller.stop();
    });
  const periodic = runPeriodically(POLLER_TRY_MS, turn, {
    logger: ctx.logger,
    name: 'alerts poller lease',
    runAtStart: true,
  });
  return {
    async stop() {
      stopping?.();
      await periodic.stop();
    },
  };
}
