import type { AuditAction, MembershipTier, PointsEntryReason, PointTransactionType } from '@pagecast/contracts';
import mongoose from 'mongoose';

/**
 * One document per ledger entry, never updated except its `announced` flag. (accountId, seq) is unique: the
 * optimistic lock of the ledger; `key` is unique: the idempotency key (an entry is applied once, whatever retries).
 */
export interface LedgerEntryDoc {
  _id: string;
  accountId: string;
  seq: number;
  /** running balance after this entry; never below zero */
  balance: number;
  /** signed */
  amount: number;
  type: PointTransactionType;
  /** why the points moved: a code and its parameters (null on entries stored before it: see `description`) */
  reason: PointsEntryReason | null;
  /** entries stored before `reason` only: their Japanese sentence (domain/history.ts reads it back) */
  description?: string | null;
  key: string;
  relatedFileId: string | null;
  paymentIntentId: string | null;
  /** what the entry decided, for a step that follows it after a crash (e.g. the tier an upgrade paid for) */
  meta: Record<string, unknown> | null;
  createdAt: Date;
  /** billing.points.changed.v1 handed to the outbox (a sweep announces the ones a crash left) */
  announced: boolean;
}

const ledgerSchema = new mongoose.Schema<LedgerEntryDoc>(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true },
    seq: { type: Number, required: true },
    balance: { type: Number, required: true },
    amount: { type: Number, required: true },
    type: { type: String, required: true },
    reason: { type: mongoose.Schema.Types.Mixed, default: null },
    description: { type: String },
    key: { type: String, required: true },
    relatedFileId: { type: String, default: null },
    paymentIntentId: { type: String, default: null },
    meta: { type: mongoose.Schema.Types.Mixed, default: null },
    createdAt: { type: Date, required: true },
    announced: { type: Boolean, default: false },
  },
  { collection: 'point_transactions', versionKey: false, minimize: false },
);
// _id is `<accountId>:<seq>` (unique: the optimistic lock); the compound index also serves history reads.
ledgerSchema.index({ accountId: 1, seq: 1 }, { unique: true });
ledgerSchema.index({ key: 1 }, { unique: true });
ledgerSchema.index({ accountId: 1, createdAt: 1 });
ledgerSchema.index({ announced: 1, createdAt: 1 });

/** A member's plan, versioned like the ledger: (memberId, seq) unique, the newest entry is the plan. */
export interface MembershipDoc {
  _id: string;
  memberId: string;
  seq: number;
  tier: MembershipTier;
  registeredAt: Date;
  pendingDowngradeTier: MembershipTier | null;
  downgradeEffectiveMonth: number | null;
  paidMonth: number | null;
  /** when the member's paid months began (see domain/membership.ts); absent on plans stored before it: the 1st */
  renewalAnchor?: Date | null;
  notice: 'trial-ended' | 'renewal-failed' | null;
  reason: string;
  createdAt: Date;
  announced: boolean;
  /**
   * the audit entry this version makes, published with its announcement (so a crash before it is repaired by the
   * sweep); null or absent: no change the audit log records (a renewal on the same plan, versions stored before)
   */
  audit?: PlanAudit | null;
}

/** Who changed the plan and how (an action code of the audit log), stored with the version it made. */
export interface PlanAudit {
  action: AuditAction;
  actorUserId: string;
  /** the client address of the member's call; '' for the renewal job */
  address: string;
  /** an upgrade's price, in points */
  pointsCharged?: number;
}

const membershipSchema = new mongoose.Schema<MembershipDoc>(
  {
    _id: { type: String, required: true },
    memberId: { type: String, required: true },
    seq: { type: Number, required: true },
    tier: { type: String, required: true },
    registeredAt: { type: Date, required: true },
    pendingDowngradeTier: { type: String, default: null },
    downgradeEffectiveMonth: { type: Number, default: null },
    paidMonth: { type: Number, default: null },
    renewalAnchor: { type: Date, default: null },
    notice: { type: String, default: null },
    reason: { type: String, required: true },
    createdAt: { type: Date, required: true },
    announced: { type: Boolean, default: false },
    audit: { type: mongoose.Schema.Types.Mixed, default: null },
  },
  { collection: 'memberships', versionKey: false, minimize: false },
);
membershipSchema.index({ memberId: 1, seq: 1 }, { unique: true });
membershipSchema.index({ announced: 1, createdAt: 1 });
membershipSchema.index({ tier: 1 });

/**
 * A transfer's intent, inserted before any leg (insert-once by transferId). Its state moves forward only:
 * started → applied | refused. A lookup of an unknown id inserts it as 'abandoned', so it is never applied later.
 */
export interface TransferDoc {
  _id: string;
  buyerId: string;
  sellerId: string;
  fileId: string;
  price: number;
  fee: number;
  net: number;
  description: string | null;
  state: 'started' | 'applied' | 'refused' | 'abandoned';
  code: string | null;
  buyerBalance: number | null;
  createdAt: Date;
  appliedAt: Date | null;
}

const transferSchema = new mongoose.Schema<TransferDoc>(
  {
    _id: { type: String, required: true },
    buyerId: { type: String, required: true },
    sellerId: { type: String, required: true },
    fileId: { type: String, required: true },
    price: { type: Number, required: true },
    fee: { type: Number, required: true },
    net: { type: Number, required: true },
    description: { type: String, default: null },
    state: { type: String, required: true },
    code: { type: String, default: null },
    buyerBalance: { type: Number, default: null },
    createdAt: { type: Date, required: true },
    appliedAt: { type: Date, default: null },
  },
  { collection: 'transfers', versionKey: false, minimize: false },
);
transferSchema.index({ state: 1, createdAt: 1 });

/** Where an account's chain was last seen to end: a hint (a lower bound) for finding its head by _id. */
const ledgerHeadSchema = new mongoose.Schema<{ _id: string; seq: number }>(
  { _id: { type: String, required: true }, seq: { type: Number, required: true } },
  { collection: 'point_transaction_heads', versionKey: false },
);

export function createModels(conn: mongoose.Connection) {
  const get = <T>(name: string, schema: mongoose.Schema<T>) =>
    (conn.models[name] as mongoose.Model<T> | undefined) ?? conn.model<T>(name, schema);
  return {
    ledger: get('LedgerEntry', ledgerSchema),
    ledgerHeads: get('LedgerHead', ledgerHeadSchema),
    memberships: get('Membership', membershipSchema),
    transfers: get('Transfer', transferSchema),
  };
}
export type Models = ReturnType<typeof createModels>;
