import type { PointsEntryReason, PointTransactionType } from '@pagecast/contracts';
import { isDuplicateKeyError } from '@pagecast/service-kit';
import { nextEntry } from '../domain/ledger';
import type { LedgerEntryDoc, Models } from './models';

export interface AppendInput {
  accountId: string;
  /** signed */
  amount: number;
  type: PointTransactionType;
  /** why: a code and its parameters, worded by the reader's front end (never a sentence) */
  reason: PointsEntryReason;
  /** idempotency key: one entry per key, ever */
  key: string;
  relatedFileId?: string | null;
  paymentIntentId?: string | null;
  meta?: Record<string, unknown> | null;
}

export type AppendResult =
  | { status: 'applied'; entry: LedgerEntryDoc; created: boolean }
  | { status: 'insufficient'; balance: number };

/** Tries before giving up on a hot account (each loss means another writer's entry landed: progress was made). */
const MAX_ATTEMPTS = 500;

/** FerretDB (SQLite) refusing a write because another holds the database lock: a retry is safe. */
export function isBusy(err: unknown): boolean {
  return err instanceof Error && /SQLITE_BUSY|database is locked/.test(err.message);
}

type Head = Pick<LedgerEntryDoc, 'seq' | 'balance' | 'createdAt'>;

/** An entry's _id: the account and its sequence number, so "entry n+1 of this account" is the unique _id itself. */
export const entryId = (accountId: string, seq: number) => `${accountId}:${seq}`;

/**
 * The append-only ledger. An append finds the account's last entry, checks the balance and inserts entry n+1 under
 * _id `<account>:<n+1>`: of several concurrent writers exactly one inserts it, and a loser retries on the new head
 * (optimistic concurrency). A unique index on `key` makes an append idempotent. No update, no `$inc`: correct on
 * FerretDB, whose updates are not atomic, and on MongoDB alike.
 *
 * Finding the head is by _id only (FerretDB answers a lookup by _id from its primary key, while a sort or a filter on
 * another field scans the collection): the head this process last saw (or the stored hint, a lower bound) is probed
 * forward one _id at a time until the next one is missing. The chain has no gaps, so that is the head.
 */
export function createLedger({ ledger, ledgerHeads }: Models) {
  const heads = new Map<string, Head>();
  const byKey = (key: string) => ledger.findOne({ key }).lean<LedgerEntryDoc>();
  const at = (accountId: string, seq: number) =>
    ledger
      .findById(entryId(accountId, seq))
      .select({ seq: 1, balance: 1, createdAt: 1, key: 1 })
      .lean<LedgerEntryDoc>();

  async function head(accountId: string): Promise<Head | null> {
    let known: Head | null = heads.get(accountId) ?? null;
    if (!known) {
      const hint = await ledgerHeads.findById(accountId).lean<{ seq: number }>();
      if (hint && hint.seq > 0) known = await at(accountId, hint.seq);
    }
    for (;;) {
      const next = await at(accountId, (known?.seq ?? 0) + 1);
      if (!next) break;
      known = next;
    }
    if (known) heads.set(accountId, { seq: known.seq, balance: known.balance, createdAt: known.createdAt });
    return known;
  }

  const remember = async (accountId: string, h: Head) => {
    const cur = heads.get(accountId);
    if (!cur || cur.seq < h.seq) heads.set(accountId, h);
    // A hint only (a lower bound for a process without the head in memory): a late, lower write is harmless.
    if (h.seq % 20 === 0) {
      await ledgerHeads.updateOne({ _id: accountId }, { $set: { seq: h.seq } }, { upsert: true }).catch(() => {});
    }
  };

  return {
    byKey,
    async balance(accountId: string): Promise<number> {
      return (await head(accountId))?.balance ?? 0;
    },
    async append(input: AppendInput, now: () => Date = () => new Date()): Promise<AppendResult> {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const last = await head(input.accountId);
        const next = nextEntry(last, input.amount, now());
        if (!next) {
          // Short of points, unless this very entry was applied before (a retry after the balance moved on).
          const existing = await byKey(input.key);
          if (existing) return { status: 'applied', entry: existing, created: false };
          return { status: 'insufficient', balance: last?.balance ?? 0 };
        }
        const entry: LedgerEntryDoc = {
          _id: entryId(input.accountId, next.seq),
          accountId: input.accountId,
          seq: next.seq,
          balance: next.balance,
          amount: input.amount,
          type: input.type,
          reason: input.reason,
          key: input.key,
          relatedFileId: input.relatedFileId ?? null,
          paymentIntentId: input.paymentIntentId ?? null,
          meta: input.meta ?? null,
          createdAt: next.createdAt,
          announced: false,
        };
        try {
          await ledger.create(entry);
          await remember(input.accountId, next);
          return { status: 'applied', entry, created: true };
        } catch (err) {
          if (isBusy(err)) {
            // FerretDB's SQLite answers "database is locked" under many writers: nothing was written; try again.
            await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
            continue;
          }
          if (!isDuplicateKeyError(err)) throw err;
          // Which unique index? FerretDB does not say. The slot taken → lost the race (or it is our own entry);
          // the slot free → the key exists: applied before.
          const taken = await at(input.accountId, next.seq);
          if (taken?.key === input.key) {
            return { status: 'applied', entry: (await byKey(input.key)) as LedgerEntryDoc, created: false };
          }
          if (!taken) {
            const existing = await byKey(input.key);
            if (existing) return { status: 'applied', entry: existing, created: false };
          }
          // A short random pause spreads a hot account's writers.
          await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 + attempt * 2)));
        }
      }
      throw new Error(`ledger append for ${input.accountId} lost ${MAX_ATTEMPTS} races in a row`);
    },
    /** Newest first (the spec's history). */
    history(accountId: string, limit = 500) {
      return ledger.find({ accountId }).sort({ seq: -1 }).limit(limit).lean<LedgerEntryDoc[]>();
    },
    since(accountId: string, from: Date) {
      return ledger
        .find({ accountId, createdAt: { $gte: from } })
        .select({ type: 1, amount: 1, key: 1 })
        .lean<Pick<LedgerEntryDoc, 'type' | 'amount' | 'key'>[]>();
    },
    unannounced(olderThan: Date, limit = 200) {
      return ledger
        .find({ announced: false, createdAt: { $lte: olderThan } })
        .sort({ createdAt: 1 })
        .limit(limit)
        .lean<LedgerEntryDoc[]>();
    },
    async markAnnounced(id: string) {
      await ledger.updateOne({ _id: id }, { $set: { announced: true } });
    },
    all: () => ledger.find({}).lean<LedgerEntryDoc[]>(),
  };
}
export type Ledger = ReturnType<typeof createLedger>;
