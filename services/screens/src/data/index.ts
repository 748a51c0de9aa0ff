import { PLAY_FUTURE_SLACK_SECONDS, PLAY_MAX_AGE_DAYS } from '@pagecast/contracts';
import { createClaims, type Logger, type Nats } from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import { createAlertRepository } from './alerts';
import { createAssignmentHistory } from './assignment-history';
import { createContentRepository } from './content';
import { createDeviceTokens } from './device-tokens';
import { createDeviceView, type ViewCollection } from './device-view';
import { createFleetRepository } from './fleet';
import { defineModels } from './models';
import { createGapRepository } from './gaps';
import { createIncidentRepository } from './incidents';
import { createPairingRepository } from './pairings';
import { createCompactionRepository } from './play-compaction';
import { createPlayIntake } from './play-intake';
import { createPlayLedgerRepository } from './play-ledger';
import { createPlayRollups } from './play-rollups';
import { createPlayRepository } from './plays';
import { createRateLimits } from './rate-limits';
import { createScreenRepository } from './screens';
import { createSignedPlayRepository } from './signed-plays';
import { createSoldFileRepository } from './sold-files';
import { createStatusRepository } from './statuses';
import { createProposalRepository } from './proposals';
import { createWorkspaceSettings } from './workspace-settings';

/** What the play read models keep: records may be this old (and a few minutes more), no older. */
const MAX_AGE_MS = PLAY_MAX_AGE_DAYS * 86_400_000 + 2 * PLAY_FUTURE_SLACK_SECONDS * 1000;

export async function createRepositories(
  conn: mongoose.Connection,
  nats: Nats,
  opts: {
    logger?: Logger;
    playsStream?: string;
    /** the intake's bound on records awaiting their acknowledgement, and a batch's time */
    intakeLimits?: { maxPending?: number; timeoutMs?: number };
    /** the service's clock (ms): what in-memory entries age on */
    now?: () => number;
  } = {},
) {
  const models = defineModels(conn);
  // what displays' calls read, in memory on every instance; it hears the screens' events before it loads
  // (a change during the load re-reads what it names), and its load is the start's scan (in batches)
  const view = createDeviceView({
    screens: models.screens.collection as unknown as ViewCollection,
    groups: conn.collection('screen_groups') as unknown as ViewCollection,
    fleets: conn.collection('screen_fleets') as unknown as ViewCollection,
  });
  view.follow(nats, opts.logger);
  // the screens' signing keys as every instance holds them: bindings heard from every instance
  const signed = createSignedPlayRepository(conn, opts.now ? { now: opts.now } : {});
  signed.follow(nats, opts.logger);
  await nats.nc.flush();
  const loaded = await view.load();
  opts.logger?.info(loaded, 'device view loaded');
  return {
    view,
    alerts: createAlertRepository(conn, nats),
    history: createAssignmentHistory(conn),
    content: createContentRepository(conn, { maxAgeMs: MAX_AGE_MS }),
    gaps: createGapRepository(conn, { maxAgeMs: MAX_AGE_MS }),
    ledger: createPlayLedgerRepository(conn),
    pairings: createPairingRepository(models),
    screens: createScreenRepository(models, view),
    statuses: await createStatusRepository(nats, opts.logger),
    plays: createPlayRepository(models),
    /** the play records' way in (a JetStream stream) and the judge's checkpoint */
    intake: createPlayIntake(conn, nats, { stream: opts.playsStream ?? 'PLAYS', ...opts.intakeLimits }),
    /** per-day counts the reports read (written by the judge, sealed by compaction) */
    rollups: createPlayRollups(conn),
    /** raw records past retention folded into the rollups, and the days' markers */
    compaction: createCompactionRepository(conn),
    soldFiles: createSoldFileRepository(models),
    rateLimits: createRateLimits(conn),
    deviceTokens: createDeviceTokens(conn),
    fleet: createFleetRepository(conn, view),
    incidents: createIncidentRepository(conn),
    /** approval: editors' changes waiting for a decision, and the decisions */
    proposals: createProposalRepository(conn),
    /** the workspaces' settings account mirrors (approval on or off) */
    settings: createWorkspaceSettings(nats, opts.logger),
    signed,
    /** short leases (kit): an owner's fleet changes one at a time, one incident sweep at a time */
    leases: createClaims(conn, 'fleet_leases'),
    /** one-time passes of a deployment (kit claims, kept) */
    migrations: createClaims(conn, 'screen_migrations'),
  };
}
export type Repositories = Awaited<ReturnType<typeof createRepositories>>;
export type {
  PairingClaimRecord,
  PairingRecord,
  PlayRecordDoc,
  PlayRefusalDoc,
  ScreenRecord,
  SoldFileDoc,
} from './models';
export type { ScreenStatus } from './statuses';
export type { IncidentDoc } from './incidents';
export type { DecisionDoc, ProposalDoc } from './proposals';
export type { FleetDoc, GroupDoc, RunningTakeover, TakeoverDoc, TemplateDoc } from './fleet';
