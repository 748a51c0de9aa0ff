// A workspace's settings as account mirrors them into a NATS key-value bucket (WORKSPACE_SETTINGS_BUCKET, key the
// workspace's id): read when an editor makes a change that may wait for approval. A kv get, no cache: a setting turned
// on applies to the next call.
import { WORKSPACE_SETTINGS_BUCKET, WorkspaceSettingsValue } from '@pagecast/contracts';
import { AppError, type KV, type Logger, type Nats, openKeyValue } from '@pagecast/service-kit';

export function createWorkspaceSettings(nats: Nats, logger?: Logger) {
  let bucket: Promise<KV> | undefined;
  // created if account has not yet, with the settings account opens it with (history 1, no expiry)
  const open = () => {
    bucket ??= openKeyValue(nats, WORKSPACE_SETTINGS_BUCKET, { ttlMs: 0, timeoutMs: 5_000 }).catch((err) => {
      bucket = undefined;
      throw err;
    });
    return bucket;
  };
  return {
    open,
    /**
     * Whether the workspace asks for approval. No key: the default (off). A bucket that cannot be read, or a value
     * not understood, refuses the call (SERVICE_UNAVAILABLE): an editor's change never goes through unapproved
     * because the setting could not be read.
     */
    async approvalRequired(workspaceId: string): Promise<boolean> {
      let raw: string | undefined;
      try {
        const entry = await (await open()).get(workspaceId);
        raw = entry && entry.operation === 'PUT' && entry.length > 0 ? entry.string() : undefined;
      } catch (err) {
        logger?.warn({ err, workspaceId }, 'workspace settings unreadable: a change that may wait is refused');
        throw new AppError('SERVICE_UNAVAILABLE');
      }
      if (raw === undefined) return false;
      let parsed: ReturnType<typeof WorkspaceSettingsValue.safeParse>;
      try {
        parsed = WorkspaceSettingsValue.safeParse(JSON.parse(raw));
      } catch {
        parsed = WorkspaceSettingsValue.safeParse(undefined);
      }
      if (!parsed.success) {
        logger?.warn({ workspaceId }, 'workspace settings value not understood: a change that may wait is refused');
        throw new AppError('SERVICE_UNAVAILABLE');
      }
      return parsed.data.approvalRequired;
    },
  };
}
