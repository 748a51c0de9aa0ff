import { constants, WORKSPACE_ROLES } from '@pagecast/contracts';
import { createWriteLocks, isDuplicateKeyError, readByIds } from '@pagecast/service-kit';
import mongoose from 'mongoose';
import { type InvitationRecord, type MemberRecord, memberKey, type WorkspaceRecord } from '../domain';

const workspaceSchema = new mongoose.Schema<WorkspaceRecord>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    approvalRequired: { type: Boolean, default: false },
    createdAt: { type: Date, required: true },
  },
  { collection: 'workspaces', versionKey: false, minimize: false },
);

const memberSchema = new mongoose.Schema<MemberRecord>(
  {
    _id: { type: String, required: true },
    workspaceId: { type: String, required: true },
    userId: { type: String, required: true },
    role: { type: String, enum: WORKSPACE_ROLES, required: true },
    addedAt: { type: Date, required: true },
    addedBy: { type: String, required: true },
  },
  { collection: 'workspace_members', versionKey: false, minimize: false },
);
memberSchema.index({ workspaceId: 1 });
memberSchema.index({ userId: 1 });

const invitationSchema = new mongoose.Schema<InvitationRecord>(
  {
    _id: { type: String, required: true },
    workspaceId: { type: String, required: true },
    email: { type: String, required: true },
    role: { type: String, enum: WORKSPACE_ROLES, required: true },
    language: { type: String, enum: constants.languages, required: true },
    tokenHash: { type: String, required: true, unique: true },
    invitedBy: { type: String, required: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
    revokedAt: { type: Date, default: null },
    acceptedAt: { type: Date, default: null },
    acceptedBy: { type: String, default: null },
  },
  { collection: 'workspace_invitations', versionKey: false, minimize: false },
);
invitationSchema.index({ workspaceId: 1 });

/**
 * How an invitation ended, accepted or revoked: one document under the invitation's id, so that its insert (the one
 * write FerretDB makes atomic) lets exactly one of an accept and a revoke that meet win. The invitation's own
 * `acceptedAt` / `revokedAt` are written after it, by the winner only.
 */
export interface InvitationOutcomeRecord {
  _id: string;
  outcome: 'accepted' | 'revoked';
  /** who accepted, or who revoked */
  userId: string;
  at: Date;
}

const outcomeSchema = new mongoose.Schema<InvitationOutcomeRecord>(
  {
    _id: { type: String, required: true },
    outcome: { type: String, enum: ['accepted', 'revoked'], required: true },
    userId: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { collection: 'workspace_invitation_outcomes', versionKey: false, minimize: false },
);

const defineModels = (conn: mongoose.Connection) => ({
  workspaces:
    (conn.models.Workspace as mongoose.Model<WorkspaceRecord> | undefined) ??
    conn.model<WorkspaceRecord>('Workspace', workspaceSchema),
  members:
    (conn.models.WorkspaceMember as mongoose.Model<MemberRecord> | undefined) ??
    conn.model<MemberRecord>('WorkspaceMember', memberSchema),
  invitations:
    (conn.models.WorkspaceInvitation as mongoose.Model<InvitationRecord> | undefined) ??
    conn.model<InvitationRecord>('WorkspaceInvitation', invitationSchema),
  outcomes:
    (conn.models.WorkspaceInvitationOutcome as mongoose.Model<InvitationOutcomeRecord> | undefined) ??
    conn.model<InvitationOutcomeRecord>('WorkspaceInvitationOutcome', outcomeSchema),
});

/** Inserts a document unless its `_id` exists; true when this call inserted it (the insert is the atomic step). */
async function insertOnce<T>(model: mongoose.Model<T>, doc: T): Promise<boolean> {
  try {
    await model.collection.insertOne(doc as never);
    return true;
  } catch (err) {
    if (isDuplicateKeyError(err)) return false;
    throw err;
  }
}

/**
 * Workspaces, their memberships and invitations. FerretDB runs updates as read-then-write, so whatever must happen
 * once (a workspace, a membership) is an insert under a unique `_id`; updates only touch one field of one document
 * that nothing else writes at the same time (a role; an invitation's revocation or acceptance, written only by the
 * winner of its outcome's insert).
 */
export function createWorkspaceRepository(conn: mongoose.Connection) {
  const { workspaces, members, invitations, outcomes } = defineModels(conn);
  const readWorkspaces = readByIds<WorkspaceRecord>(workspaces.collection);
  const readMembers = readByIds<MemberRecord>(members.collection);
  const memberLocks = createWriteLocks(conn, 'workspace_member_locks');

  return {
    models: [workspaces, members, invitations, outcomes] as const,
    /**
     * The workspace of a person and their owner row, each inserted unless it exists (idempotent: the migration and
     * every creation of an account call this). Counts what this call inserted.
     */
    async ensureOwn(owner: {
      userId: string;
      name: string;
      at: Date;
    }): Promise<{ workspace: boolean; owner: boolean }> {
      const workspace = await insertOnce<WorkspaceRecord>(workspaces, {
        _id: owner.userId,
        name: owner.name,
        approvalRequired: false,
        createdAt: owner.at,
      });
      const row = await insertOnce<MemberRecord>(members, {
        _id: memberKey(owner.userId, owner.userId),
        workspaceId: owner.userId,
        userId: owner.userId,
        role: 'owner',
        addedAt: owner.at,
        addedBy: owner.userId,
      });
      return { workspace, owner: row };
    },
    /** Which of these people already have both their workspace and their owner row (one read of each, by `_id`). */
    async withOwnWorkspace(userIds: string[]): Promise<Set<string>> {
      const found = await readWorkspaces(userIds);
      const rows = await readMembers(userIds.map((id) => memberKey(id, id)));
      return new Set(userIds.filter((id) => found.has(id) && rows.has(memberKey(id, id))));
    },
    async find(workspaceId: string): Promise<WorkspaceRecord | null> {
      return (await readWorkspaces([workspaceId])).get(workspaceId) ?? null;
    },
    async findMany(ids: string[]): Promise<Map<string, WorkspaceRecord>> {
      return readWorkspaces(ids);
    },
    /** Sets a workspace's approval setting (one field nothing else writes); the workspace after, or null if none. */
    async setApprovalRequired(workspaceId: string, approvalRequired: boolean): Promise<WorkspaceRecord | null> {
      return workspaces
        .findOneAndUpdate({ _id: workspaceId }, { $set: { approvalRequired } }, { returnDocument: 'after' })
        .lean<WorkspaceRecord>();
    },
    /** The ids of the workspaces whose approval is on (few: what the settings bucket must hold a key for). */
    async withApprovalRequired(): Promise<string[]> {
      const rows = await workspaces.collection
        .find({ approvalRequired: true } as never, { projection: { _id: 1 } })
        .toArray();
      return rows.map((r) => String(r._id));
    },
    async member(workspaceId: string, userId: string): Promise<MemberRecord | null> {
      return members.findById(memberKey(workspaceId, userId)).lean<MemberRecord>();
    },
    async membersOf(workspaceId: string): Promise<MemberRecord[]> {
      return members.find({ workspaceId }).sort({ addedAt: 1 }).lean<MemberRecord[]>();
    },
    async membershipsOf(userId: string): Promise<MemberRecord[]> {
      return members.find({ userId }).sort({ addedAt: 1 }).lean<MemberRecord[]>();
    },
    /** Every membership but owners' (what the gateways' bucket mirrors), a page at a time. */
    async *guests(): AsyncGenerator<MemberRecord[]> {
      const cursor = members.collection.find({ role: { $ne: 'owner' } } as never, { batchSize: 500 });
      let page: MemberRecord[] = [];
      for await (const row of cursor as AsyncIterable<MemberRecord>) {
        page.push(row);
        if (page.length >= 500) {
          yield page;
          page = [];
        }
      }
      if (page.length > 0) yield page;
    },
    /**
     * Runs `fn` holding the membership's write lock: what changes a membership and its copy in the gateways' bucket
     * (an acceptance, a role change, a removal, the reconciliation) runs whole under it, so that the copy ends as the
     * row does. Without it a role change beside a removal put the role back into the bucket after the removal had
     * deleted it (23 of 30 rounds: the removed person still let in by the gateways; test/member-race.test.ts).
     */
    withMemberLock<T>(workspaceId: string, userId: string, fn: () => Promise<T>): Promise<T> {
      return memberLocks.withLock(memberKey(workspaceId, userId), fn);
    },
    /** Makes someone a member: false when they are one already (the unique `_id` decides, even in a race). */
    async addMember(row: Omit<MemberRecord, '_id'>): Promise<boolean> {
      return insertOnce<MemberRecord>(members, { _id: memberKey(row.workspaceId, row.userId), ...row });
    },
    async setRole(workspaceId: string, userId: string, role: MemberRecord['role']): Promise<MemberRecord | null> {
      return members
        .findOneAndUpdate(
          { _id: memberKey(workspaceId, userId), role: { $ne: 'owner' } },
          { $set: { role } },
          { returnDocument: 'after' },
        )
        .lean<MemberRecord>();
    },
    /** Removes a membership (never an owner's); the row removed, or null when there was none. */
    async removeMember(workspaceId: string, userId: string): Promise<MemberRecord | null> {
      return members
        .findOneAndDelete({ _id: memberKey(workspaceId, userId), role: { $ne: 'owner' } })
        .lean<MemberRecord>();
    },
    async createInvitation(doc: InvitationRecord): Promise<void> {
      await invitations.collection.insertOne(doc as never);
    },
    async invitationByTokenHash(tokenHash: string): Promise<InvitationRecord | null> {
      return invitations.findOne({ tokenHash }).lean<InvitationRecord>();
    },
    async invitation(workspaceId: string, id: string): Promise<InvitationRecord | null> {
      return invitations.findOne({ _id: id, workspaceId }).lean<InvitationRecord>();
    },
    /** Not accepted, not revoked, not expired; newest first. */
    async pendingInvitations(workspaceId: string, now: Date): Promise<InvitationRecord[]> {
      return invitations
        .find({ workspaceId, acceptedAt: null, revokedAt: null, expiresAt: { $gt: now } })
        .sort({ createdAt: -1 })
        .lean<InvitationRecord[]>();
    },
    /**
     * Ends an invitation: the first call for an id decides its outcome for good (an insert under the invitation's
     * id). Returns the outcome that holds, this call's when `won`.
     */
    async decideInvitation(
      decision: InvitationOutcomeRecord,
    ): Promise<{ won: boolean; outcome: InvitationOutcomeRecord }> {
      if (await insertOnce<InvitationOutcomeRecord>(outcomes, decision)) return { won: true, outcome: decision };
      const held = await outcomes.findById(decision._id).lean<InvitationOutcomeRecord>();
      if (!held) throw new Error(`invitation outcome ${decision._id} neither inserted nor found`);
      return { won: false, outcome: held };
    },
    /** Writes a decided outcome onto the invitation (the same values whoever writes them, so a repeat is harmless). */
    async recordOutcome(decided: InvitationOutcomeRecord): Promise<void> {
      const set =
        decided.outcome === 'accepted'
          ? { acceptedAt: decided.at, acceptedBy: decided.userId }
          : { revokedAt: decided.at };
      await invitations.updateOne({ _id: decided._id }, { $set: set });
    },
    /** How many workspaces and owner rows there are (the migration's counts). */
    async counts(): Promise<{ workspaces: number; owners: number; members: number }> {
      return {
        workspaces: await workspaces.countDocuments(),
        owners: await members.countDocuments({ role: 'owner' }),
        members: await members.countDocuments(),
      };
    },
  };
}
export type WorkspaceRepository = ReturnType<typeof createWorkspaceRepository>;
