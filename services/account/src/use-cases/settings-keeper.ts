import { type Logger, runPeriodically } from '@pagecast/service-kit';
import type { Repositories, SettingsMirror } from '../data';
import { reconcileWorkspaceSettings, syncWorkspaceSettings } from './sync-workspace-settings';

/** Keeps the screens service's copy of the settings in line with the database while the service runs. */
export interface SettingsKeeper {
  /** A workspace whose copy may be wrong (its write failed): retried until it is written. */
  schedule(workspaceId: string): void;
  /** Resolves when no workspace waits for a retry (tests). */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

export function startSettingsKeeper(opts: {
  data: Pick<Repositories, 'workspaces'>;
  mirror: SettingsMirror;
  logger: Logger;
  retryMs: number;
  reconcileMs: number;
}): SettingsKeeper {
  const { data, mirror, logger } = opts;
  const pending = new Set<string>();
  const retries = runPeriodically(
    opts.retryMs,
    async () => {
      for (const id of [...pending]) {
        await syncWorkspaceSettings(data, mirror, id);
        pending.delete(id);
        logger.info({ workspaceId: id }, "workspace settings copied to the screens service's bucket after a retry");
      }
    },
    { logger, name: 'the retry of workspace settings copies' },
  );
  const reconciliation = runPeriodically(
    opts.reconcileMs,
    async () => {
      const written = await reconcileWorkspaceSettings(data, mirror);
      if (written) logger.info({ written }, "workspace settings put back into the screens service's bucket");
    },
    { logger, name: 'the reconciliation of workspace settings', runAtStart: true },
  );
  return {
    schedule(workspaceId) {
      pending.add(workspaceId);
    },
    async settled() {
      while (pending.size > 0) await new Promise((r) => setTimeout(r, 50));
    },
    async stop() {
      await Promise.all([retries.stop(), reconciliation.stop()]);
    },
  };
}
