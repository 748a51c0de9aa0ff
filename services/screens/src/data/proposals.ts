// Proposals (approval): an editor's change waiting for a decision, and the decisions. A proposal is written by whoever
// holds its decision; the decision is an insert under the proposal's id (`proposal_decisions`), the one write
// FerretDB makes atomic (docs/platform.md): of two deciders at once exactly one inserts it.
import type { AuditChange, ProposalChange, ProposalStatus } from '@pagecast/contracts';
import { isDuplicateKeyError, onceUntilFailure } from '@pagecast/service-kit';
import type mongoose from 'mongoose';

export interface ProposalDoc {
  _id: string;
  workspaceId: string;
  proposedBy: string;
  /** the signed client address of the proposing call (the audit log's) */
  proposedFrom: string;
  change: ProposalChange;
  screenIds: string[];
  status: ProposalStatus;
  createdAt: Date;
  decidedBy: string | null;
  decidedAt: Date | null;
  reason: string | null;
  /** what it changes, as it would (pending) or did (approved) */
  objects: Array<{ type: 'screen' | 'group' | 'group-order'; id: string; diff: AuditChange[] }>;
}

export interface DecisionDoc {
  /** the proposal's id: one decision per proposal */
  _id: string;
  workspaceId: string;
  outcome: 'approved' | 'rejected' | 'withdrawn';
  by: string;
  address: string;
  at: Date;
  reason: string | null;
  /** the proposal holds the outcome and its events are in the outbox; null: a crash may have left it half done */
  finishedAt: Date | null;
}

export function createProposalRepository(conn: mongoose.Connection) {
  const proposals = conn.collection<ProposalDoc>('proposals');
  const decisions = conn.collection<DecisionDoc>('proposal_decisions');
  const ensureIndexes = onceUntilFailure(() =>
    Promise.all([
      proposals.createIndex({ workspaceId: 1, createdAt: -1, _id: -1 }),
      proposals.createIndex({ workspaceId: 1, status: 1 }),
      decisions.createIndex({ finishedAt: 1 }),
    ]),
  );
  return {
    ensureIndexes,
    get: (id: string) => proposals.findOne({ _id: id }),
    async insert(doc: ProposalDoc): Promise<void> {
      await ensureIndexes();
      await proposals.insertOne(doc);
    },
    countPending: (workspaceId: string) => proposals.countDocuments({ workspaceId, status: 'pending' }),
    /** newest first; `after`: the last of the previous page */
    async page(
      workspaceId: string,
      opts: { status?: ProposalStatus; after?: { createdAt: Date; id: string }; limit: number },
    ): Promise<ProposalDoc[]> {
      const filter: Record<string, unknown> = { workspaceId, ...(opts.status ? { status: opts.status } : {}) };
      if (opts.after) {
        filter.$or = [
          { createdAt: { $lt: opts.after.createdAt } },
          { createdAt: opts.after.createdAt, _id: { $lt: opts.after.id } },
        ];
      }
      return proposals.find(filter).sort({ createdAt: -1, _id: -1 }).limit(opts.limit).toArray();
    },
    set: (id: string, fields: Partial<Omit<ProposalDoc, '_id'>>) => proposals.updateOne({ _id: id }, { $set: fields }),
    decisions: {
      /** false: the proposal is decided (or being decided) already */
      async take(doc: DecisionDoc): Promise<boolean> {
        await ensureIndexes();
        try {
          await decisions.insertOne(doc);
          return true;
        } catch (err) {
          if (isDuplicateKeyError(err)) return false;
          throw err;
        }
      },
      get: (id: string) => decisions.findOne({ _id: id }),
      /** an approval whose change was refused: the proposal is open again */
      release: (id: string) => decisions.deleteOne({ _id: id, finishedAt: null }),
      finished: (id: string, at: Date) => decisions.updateOne({ _id: id }, { $set: { finishedAt: at } }),
      unfinished: () => decisions.find({ finishedAt: null }).toArray(),
    },
  };
}
export type ProposalRepository = ReturnType<typeof createProposalRepository>;
