import { WORKSPACE_SETTINGS_BUCKET, WorkspaceSettingsValue } from '@pagecast/contracts';
import { type KV, type Nats, openKeyValue } from '@pagecast/service-kit';

/** What the bucket holds for a workspace: its value (null: no key, or one this service cannot read) and revision. */
export interface SettingsEntry {
  value: WorkspaceSettingsValue | null;
  /** the key's last revision; 0 when it never existed */
  revision: number;
  /** whether the key holds a value (a put), not a delete or nothing */
  present: boolean;
}

/**
 * The NATS key-value copy of each workspace's settings that the screens service reads (WORKSPACE_SETTINGS_BUCKET):
 * key `<workspaceId>`, value `{approvalRequired, v: 1}`; no key reads as the defaults (approval off). The database is
 * the truth: `use-cases/sync-workspace-settings.ts` writes the copy from it with a compare-and-set.
 */
export interface SettingsMirror {
  get(workspaceId: string): Promise<SettingsEntry>;
  /** Writes unconditionally (the step that turns approval on before the database does: see update-workspace-settings). */
  put(workspaceId: string, value: WorkspaceSettingsValue): Promise<void>;
  /**
   * Writes only if the key is still at `revision` (0: the key does not exist or was deleted); false when another
   * write came in between.
   */
  putIfUnchanged(workspaceId: string, value: WorkspaceSettingsValue, revision: number): Promise<boolean>;
  /** The workspaces that have a key (a value put, not deleted). */
  keys(): Promise<string[]>;
}

/** JetStream's refusal of a write whose expected last revision is not the key's (another writer came first). */
function isWrongRevision(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return e?.code === 10071 || /wrong last sequence/i.test(String(e?.message ?? ''));
}

/** Kept forever (no age limit), one value per key; created here if missing. */
export async function createSettingsMirror(nats: Nats): Promise<SettingsMirror> {
  const kv: KV = await openKeyValue(nats, WORKSPACE_SETTINGS_BUCKET, { ttlMs: 0 });
  return {
    async get(workspaceId) {
      const entry = await kv.get(workspaceId);
      if (!entry) return { value: null, revision: 0, present: false };
      if (entry.operation !== 'PUT') return { value: null, revision: entry.revision, present: false };
      let value: WorkspaceSettingsValue | null = null;
      try {
        const parsed = WorkspaceSettingsValue.safeParse(entry.json());
        value = parsed.success ? parsed.data : null;
      } catch {
        value = null;
      }
      return { value, revision: entry.revision, present: true };
    },
    async put(workspaceId, value) {
      await kv.put(workspaceId, JSON.stringify(value));
    },
    async putIfUnchanged(workspaceId, value, revision) {
      try {
        if (revision === 0) await kv.create(workspaceId, JSON.stringify(value));
        else await kv.update(workspaceId, JSON.stringify(value), revision);
        return true;
      } catch (err) {
        if (isWrongRevision(err)) return false;
        throw err;
      }
    },
    async keys() {
      const out: string[] = [];
      for await (const k of await kv.keys()) out.push(k);
      return out;
    },
  };
}
