import { WORKSPACE_MEMBERS_BUCKET, type WorkspaceMembershipValue, type WorkspaceRole } from '@pagecast/contracts';
import { type KV, type Nats, openKeyValue } from '@pagecast/service-kit';

/**
 * The NATS key-value copy of the non-owner memberships that every gateway watches (WORKSPACE_MEMBERS_BUCKET): key
 * `<workspaceId>.<userId>`, value `{role, v: 1}`; a removal deletes the key. The database stays the truth: the copy is
 * written after a membership is stored (before it is removed), and `reconcile` puts back what a failed write missed.
 */
export interface MembershipMirror {
  put(workspaceId: string, userId: string, role: WorkspaceRole): Promise<void>;
  remove(workspaceId: string, userId: string): Promise<void>;
  /** The role the bucket holds for a membership, or null. */
  get(workspaceId: string, userId: string): Promise<WorkspaceRole | null>;
}

export const membershipKey = (workspaceId: string, userId: string) => `${workspaceId}.${userId}`;

/** Kept forever (no age limit): a membership lasts until it is removed. One value per key. */
export async function createMembershipMirror(nats: Nats): Promise<MembershipMirror> {
  const kv: KV = await openKeyValue(nats, WORKSPACE_MEMBERS_BUCKET, { ttlMs: 0 });
  return {
    async put(workspaceId, userId, role) {
      const value: WorkspaceMembershipValue = { role, v: 1 };
      await kv.put(membershipKey(workspaceId, userId), JSON.stringify(value));
    },
    async remove(workspaceId, userId) {
      await kv.delete(membershipKey(workspaceId, userId));
    },
    async get(workspaceId, userId) {
      const entry = await kv.get(membershipKey(workspaceId, userId));
      if (entry?.operation !== 'PUT') return null;
      try {
        return entry.json<WorkspaceMembershipValue>().role ?? null;
      } catch {
        return null;
      }
    },
  };
}
