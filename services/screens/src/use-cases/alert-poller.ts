// The JMA feed poller (packages/alerts) runs on one instance at a time: the one holding the lease `alerts-poller`.
// The holder takes the lease again as soon as a period ends (the others try every 30 s), keeping its poller, and
// with it what the poller has already published; an instance that finds the lease held stops a poller it still runs.
// A dead holder's lease is taken over when it expires. What the poller publishes goes to the ALERTS stream, which
// every instance's consumer reads (a report published twice during a hand-over is applied once: its id).
import { type Poller, startPoller } from '@pagecast/alerts/feed/poller';
import type { ServiceContext } from '../context';

/** How long one period of the lease lasts (a dead holder's poller is replaced at most this late). */
export const POLLER_LEASE_MS = 5 * 60_000;
/** How often an instance without the lease tries it. */
export const POLLER_TRY_MS = 30_000;

export function startAlertPoller(ctx: ServiceContext, urls: string[], intervalMs: number): { stop(): Promise<void> } {
  const stopping = new AbortController();
  let poller: Poller | null = null;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      stopping.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      const turn = await ctx.data.leases
        .tryLease('alerts-poller', POLLER_LEASE_MS, async () => {
          poller ??= startPoller({
            urls,
            fetch: globalThis.fetch,
            intervalMs,
            publish: ctx.data.alerts.publishReport,
            onEvent: (event) => {
              if (event.type === 'failed' || event.type === 'entry-failed') ctx.logger.warn(event, 'alerts poller');
              else if (event.type === 'published') ctx.logger.info(event, 'alerts poller');
            },
          });
          // a little less than the lease: the next period is taken before this one can expire
          await pause(POLLER_LEASE_MS - 5_000);
        })
        .catch((err: unknown) => {
          ctx.logger.warn({ err }, 'alerts poller lease failed; trying again');
          return { held: false as const };
        });
      if (!turn.held) {
        const running = poller as Poller | null;
        poller = null;
        await running?.stop();
        await pause(POLLER_TRY_MS);
      }
    }
  })();
  return {
    async stop() {
      stopping.abort();
      await loop;
      await (poller as Poller | null)?.stop();
    },
  };
}
