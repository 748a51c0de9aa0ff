import type { WorkspaceSettingsValue } from '@pagecast/contracts';
import type { Repositories, SettingsMirror } from '../data';

/** How many times a sync reads again after another writer changed the key between its read and its write. */
const SYNC_ATTEMPTS = 10;

export const settingsValue = (approvalRequired: boolean): WorkspaceSettingsValue => ({ approvalRequired, v: 1 });

/**
 * Writes a workspace's settings from the database into the screens service's bucket unless it holds them already.
 * The key's revision is read BEFORE the database and the write is a compare-and-set on it, so when several writers
 * (two admins, two replicas, the reconciliation) race, the last write to land is one that read the database after
 * every change whose own sync had not yet written: the bucket ends with the database's value. A key missing reads as
 * approval off (the bucket's default), so a workspace with approval off needs no key. Returns whether it wrote.
 * Throws when NATS cannot be reached (the caller answers an error the client may retry; the reconciliation repairs).
 */
export async function syncWorkspaceSettings(
  data: Pick<Repositories, 'workspaces'>,
  mirror: SettingsMirror,
  workspaceId: string,
): Promise<boolean> {
  for (let attempt = 0; attempt < SYNC_ATTEMPTS; attempt++) {
    const entry = await mirror.get(workspaceId);
    const workspace = await data.workspaces.find(workspaceId);
    if (!workspace) return false; // not this database's (the test servers share one bucket between databases)
    const wanted = workspace.approvalRequired === true;
    const held = entry.present ? entry.value : null;
    if (held ? held.approvalRequired === wanted : !wanted && !entry.present) return false;
    if (await mirror.putIfUnchanged(workspaceId, settingsValue(wanted), entry.revision)) return true;
  }
  throw new Error(`the settings of workspace ${workspaceId} kept changing while being copied to the bucket`);
}

/**
 * Brings the bucket in line with the database (the truth): every workspace whose approval is on, and every key the
 * bucket holds for a workspace of this database, synced as above (a key of a workspace the database does not know is
 * left alone: nobody acts in it). Run at start and periodically. Returns how many keys it wrote.
 */
export async function reconcileWorkspaceSettings(
  data: Pick<Repositories, 'workspaces'>,
  mirror: SettingsMirror,
): Promise<number> {
  const ids = new Set(await data.workspaces.withApprovalRequired());
  const keys = await mirror.keys();
  for (let i = 0; i < keys.length; i += 500) {
    const known = await data.workspaces.findMany(keys.slice(i, i + 500));
    for (const id of known.keys()) ids.add(id);
  }
  let written = 0;
  for (const id of ids) if (await syncWorkspaceSettings(data, mirror, id)) written++;
  return written;
}
