import {
  type Clock,
  createFailpoints,
  type Logger,
  type RunningService,
  runPeriodically,
  startServiceRuntime,
} from '@pagecast/service-kit';
import { Gauge } from 'prom-client';
import type { Config } from './config';
import type { ServiceContext } from './context';
import { createRepositories } from './data';
import { startConsumers } from './events';
import { startPlayJudge } from './events/play-judge';
import { createRouter } from './http';
import { startAlertPoller } from './use-cases/alert-poller';
import { serveDeviceSocketCalls } from './events/device-socket';
import { resumePendingChanges } from './use-cases/bulk-change';
import { recordHoursInForce } from './use-cases/hours-history';
import { compactPlays } from './use-cases/compact-plays';
import { sweepIncidents } from './use-cases/incident-sweep';
import { finishDecisions } from './use-cases/proposals';

export const SERVICE_NAME = 'screens';
/** This service's own database (docs/platform.md); MONGO_DB overrides it (tests). */
export const DATABASE_NAME = 'pagecast_screens';

export type Server = RunningService<ServiceContext>;
/** A compaction holds its lease at most this long (a day's fold and deletion). */
const COMPACTION_LEASE_MS = 30 * 60_000;

/** Starts the service (main.ts and the component tests, which run it in-process). */
export async function createServer(
  config: Config,
  /** clock: the component tests' own (moved by an offset); default the runtime's (failpoint screens.clock) */
  opts: { logger?: Logger; clock?: Clock } = {},
): Promise<Server> {
  return startServiceRuntime({
    name: SERVICE_NAME,
    config,
    logger: opts.logger,
    databaseName: DATABASE_NAME,
    clock: opts.clock,
    context: async (base): Promise<ServiceContext> => ({
      ...base,
      data: await createRepositories(base.conn, base.nats, {
        logger: base.logger,
        playsStream: config.PLAYS_STREAM,
        intakeLimits: { maxPending: config.PLAY_INTAKE_MAX_PENDING, timeoutMs: config.PLAY_INTAKE_TIMEOUT_MS },
        now: () => base.clock.ms(),
      }),
      // test only (refused in production): compaction's crash points
      failpoints: createFailpoints(SERVICE_NAME, config.PAGECAST_FAILPOINTS, base.logger, base.clock),
    }),
    mount: async (context, onClose) => {
      const consumers = await startConsumers(context);
      onClose(() => Promise.all(consumers.map((c) => c.stop())));
      // play records are taken into a stream and judged behind it, by one instance at a time (its lease)
      await context.data.intake.ensure();
      new Gauge({
        name: 'screens_play_intake_backlog',
        help: 'Play records taken into the intake stream and not yet judged and written (read at each scrape)',
        registers: [context.metrics],
        async collect() {
          this.set(await context.data.intake.backlog());
        },
      });
      if (config.PLAY_JUDGE === '1') {
        const judge = startPlayJudge(context);
        onClose(() => judge.stop());
      }
      // raw records past retention folded into the rollups, by one instance at a time (its lease, on real time)
      if (config.COMPACTION_MS > 0) {
        const compactor = runPeriodically(
          config.COMPACTION_MS,
          async () => {
            await context.data.leases.tryLease('play-compaction', COMPACTION_LEASE_MS, async () => {
              const done = await compactPlays(context);
              if (done.days.length > 0) context.logger.info(done, 'play records compacted into rollups');
            });
          },
          { logger: context.logger, name: 'play compaction' },
        );
        onClose(() => compactor.stop());
      }
      // changes to many screens a crash left half-applied are applied and announced again
      await context.data.fleet.ensureIndexes();
      const resumed = await resumePendingChanges(context);
      if (resumed > 0) context.logger.warn({ resumed }, 'bulk changes resumed after a restart');
      // approval: the settings bucket exists before account writes it (created with account's settings), and
      // decisions a crash left half done are finished (at start, then periodically)
      void context.data.settings
        .open()
        .catch((err) => context.logger.warn({ err }, 'workspace settings bucket not opened yet; opened at first use'));
      await context.data.proposals.ensureIndexes();
      const finished = await finishDecisions(context);
      if (finished > 0) context.logger.warn({ finished }, 'approval decisions finished after a restart');
      if (config.PROPOSAL_SWEEP_MS > 0) {
        const decisions = runPeriodically(config.PROPOSAL_SWEEP_MS, () => finishDecisions(context), {
          logger: context.logger,
          name: 'approval decisions',
        });
        onClose(() => decisions.stop());
      }
      // hours set before the history held them: recorded once per deployment (a permanent claim; released to be
      // tried again at the next start if the pass fails), behind the start (proof of play's closed rule)
      const { migrations } = context.data;
      void migrations.claim('hours-in-history-v1').then(
        async (claim) => {
          if (!claim) return;
          try {
            const written = await recordHoursInForce(context);
            if (written > 0) context.logger.info({ written }, 'opening hours in force recorded in screen histories');
          } catch (err) {
            context.logger.warn({ err }, 'recording the opening hours in force failed; the next start tries again');
            await migrations.release(claim).catch(() => {});
          }
        },
        (err) => context.logger.warn({ err }, 'recording the opening hours in force: claim failed'),
      );
      // incidents and their alerts: every instance ticks, one at a time sweeps (the sweep's lease)
      await context.data.incidents.ensureIndexes();
      // incidents unsettled before the sweep kept their ids apart: put there once per deployment, before any sweep
      const filled = await migrations.claim('unsettled-incidents-v1');
      if (filled) {
        try {
          await context.data.incidents.fillUnsettled();
        } catch (err) {
          await migrations.release(filled).catch(() => {});
          throw err;
        }
      }
      if (config.INCIDENT_SWEEP_MS > 0) {
        const sweeper = runPeriodically(config.INCIDENT_SWEEP_MS, () => sweepIncidents(context), {
          logger: context.logger,
          name: 'incident sweep',
        });
        onClose(() => sweeper.stop());
      }
      // the JMA feed, polled by one instance at a time (its lease)
      if (config.ALERTS_JMA_FEED_URL.length > 0) {
        const poller = startAlertPoller(context, config.ALERTS_JMA_FEED_URL, config.ALERTS_POLL_MS);
        onClose(() => poller.stop());
      }
      // the displays' calls relayed by the gateway from their sockets (core NATS, shared by the instances)
      const socketCalls = serveDeviceSocketCalls(context);
      onClose(() => socketCalls.stop());
      return [createRouter(context)];
    },
  });
}
