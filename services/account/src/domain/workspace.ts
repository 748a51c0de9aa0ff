import type { InvitableRole, WorkspaceRole } from '@pagecast/contracts';
import { can } from '@pagecast/policy';
import type { Locale } from './locale';
import { fullName, type PersonName } from './names';

/** A workspace: its id is its owner's user id (every person owns the workspace of their own account). */
export interface WorkspaceRecord {
  _id: string;
  name: string;
  approvalRequired: boolean;
  createdAt: Date;
}

/** A membership, the owner's included (role owner); `_id` is memberKey(workspaceId, userId). */
export interface MemberRecord {
  _id: string;
  workspaceId: string;
  userId: string;
  role: WorkspaceRole;
  addedAt: Date;
  /** who invited them (the owner's own row: the owner) */
  addedBy: string;
}

/** An invitation by e-mail: only its token's hash is stored. */
export interface InvitationRecord {
  _id: string;
  workspaceId: string;
  email: string;
  role: InvitableRole;
  language: Locale;
  tokenHash: string;
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  acceptedAt: Date | null;
  acceptedBy: string | null;
}

/** The membership's unique key: inserting it is the one atomic step that makes someone a member. */
export const memberKey = (workspaceId: string, userId: string) => `${workspaceId}:${userId}`;

/** Whether a role manages people (invite, change roles, remove): the policy's workspace.members. */
export const managesMembers = (role: WorkspaceRole) => can(role, 'workspace.members');

/** Whether a role changes the workspace's settings (approval): the policy's workspace.settings. */
export const mayChangeSettings = (role: WorkspaceRole) => can(role, 'workspace.settings');

/**
 * A new workspace's name: its owner's full name (in the order of the owner's language), else their address. A name,
 * not a sentence: stored once, shown as is.
 */
export function defaultWorkspaceName(owner: PersonName & { email: string; locale: Locale }): string {
  return fullName(owner.locale, owner) ?? owner.email;
}

export type InvitationState = 'pending' | 'accepted' | 'revoked' | 'expired';

/** Where an invitation stands at `now`: accepted and revoked ones are gone, an expired one says so. */
export function invitationState(
  inv: Pick<InvitationRecord, 'acceptedAt' | 'revokedAt' | 'expiresAt'>,
  now: Date,
): InvitationState {
  if (inv.acceptedAt) return 'accepted';
  if (inv.revokedAt) return 'revoked';
  if (inv.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'pending';
}
