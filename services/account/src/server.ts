import { type Logger, type RunningService, startServiceRuntime } from '@pagecast/service-kit';
import type { Config } from './config';
import {
  createMailer,
  createMembershipMirror,
  createRepositories,
  createSettingsMirror,
  loadKnownBrowserKey,
  startSweeper,
} from './data';
import {
  closePasswordHashing,
  SETTINGS_RECONCILE_INTERVAL_MS,
  SETTINGS_REPAIR_INTERVAL_MS,
  SWEEP_INTERVAL_MS,
} from './domain';
import { startConsumers } from './events';
import { createSessionTokens } from './data/session-tokens';
import { createRouter } from './http';
import { createBackground, ensureWorkspaces, reconcileMemberships, startSettingsKeeper } from './use-cases';

import type { ServiceContext } from './context';

export type { ServiceContext } from './context';
export const SERVICE_NAME = 'account';
/** This service's own database (docs/platform.md); MONGO_DB overrides it (tests). */
export const DATABASE_NAME = 'pagecast_account';

export type Server = RunningService<ServiceContext>;

/**
 * Connects to the servers, starts the outbox relay, the consumers and HTTP on config.PORT (0 = any free port).
 * Used by main.ts and by the component tests, which run the real service in-process.
 */
export async function createServer(config: Config, opts: { logger?: Logger } = {}): Promise<Server> {
  return startServiceRuntime({
    name: SERVICE_NAME,
    config,
    logger: opts.logger,
    databaseName: DATABASE_NAME,
    context: async (base, onClose): Promise<ServiceContext> => {
      const data = createRepositories(base.conn);
      await data.init();
      const mailer = createMailer(config.SMTP_URL, config.MAIL_FROM);
      onClose(async () => mailer.close());
      const background = createBackground(base.logger);
      onClose(() => background.idle());
      onClose(() => closePasswordHashing());
      const tokens = createSessionTokens(data.keys);
      await tokens.jwks(); // the first key pair exists before the first request
      const knownBrowserKey = await loadKnownBrowserKey(data.claims);
      const sweeper = startSweeper(data, base.logger, SWEEP_INTERVAL_MS);
      onClose(() => sweeper.stop());
      // Every member owns a workspace: those from before workspaces get theirs now (idempotent, see own-workspace.ts).
      const migration = await ensureWorkspaces(data);
      if (migration.workspacesCreated || migration.ownersCreated) base.logger.info(migration, 'workspaces migrated');
      const memberships = await createMembershipMirror(base.nats);
      // the gateways' copy of the memberships, put back where a write was lost (the database is the truth)
      background.run('membership reconciliation', async () => {
        const written = await reconcileMemberships(data, memberships);
        if (written) base.logger.info({ written }, "memberships republished to the gateways' bucket");
      });
      // the screens service's copy of the settings: checked against the database at start and periodically
      const settings = await createSettingsMirror(base.nats);
      const settingsKeeper = startSettingsKeeper({
        data,
        mirror: settings,
        logger: base.logger,
        retryMs: SETTINGS_REPAIR_INTERVAL_MS,
        reconcileMs: SETTINGS_RECONCILE_INTERVAL_MS,
      });
      onClose(() => settingsKeeper.stop());
      return { ...base, data, mailer, tokens, background, knownBrowserKey, memberships, settings, settingsKeeper };
    },
    mount: async (context, onClose) => {
      const consumers = await startConsumers(context);
      onClose(() => Promise.all(consumers.map((c) => c.stop())));
      return [createRouter(context)];
    },
  });
}
