import { randomUUID } from 'node:crypto';
import type { PointTransactionType } from '@pagecast/contracts';
import { isDuplicateKeyError } from '@pagecast/service-kit';
import { nextEntry } from '../domain/ledger';
import type { LedgerEntryDoc, Models } from './models';

export interface AppendInput {
  accountId: string;
  /** signed */
  amount: number;
  type: PointTransactionType;
  description: string;
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
const MAX_ATTEMPTS = 200;

/**
 * The append-only ledger. An append reads the account's last entry, checks the balance and inserts entry n+1; the
 * unique (accountId, seq) index lets exactly one of several concurrent writers land n+1, and a loser retries on the
 * new head (optimistic concurrency). The unique key makes an append idempotent. No update, no `$inc`: correct on
 * FerretDB, whose updates are not atomic, and on MongoDB alike.
 */
export function createLedger({ ledger }: Models) {
  const head = (accountId: string) =>
    ledger.findOne({ accountId }).sort({ seq: -1 }).select({ seq: 1, balance: 1, createdAt: 1 }).lean<LedgerEntryDoc>();
  const byKey = (key: string) => ledger.findOne({ key }).lean<LedgerEntryDoc>();

  return {
    byKey,
    async balance(accountId: string): Promise<number> {
      return (await head(accountId))?.balance ?? 0;
    },
    async append(input: AppendInput, now: () => Date = () => new Date()): Promise<AppendResult> {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const existing = await byKey(input.key);
        if (existing) return { status: 'applied', entry: existing, created: false };
        const last = await head(input.accountId);
        const next = nextEntry(last, input.amount, now());
        if (!next) return { status: 'insufficient', balance: last?.balance ?? 0 };
        const entry: LedgerEntryDoc = {
          _id: randomUUID(),
          accountId: input.accountId,
          seq: next.seq,
          balance: next.balance,
          amount: input.amount,
          type: input.type,
          description: input.description,
          key: input.key,
          relatedFileId: input.relatedFileId ?? null,
          paymentIntentId: input.paymentIntentId ?? null,
          meta: input.meta ?? null,
          createdAt: next.createdAt,
          announced: false,
        };
        try {
          await ledger.create(entry);
          return { status: 'applied', entry, created: true };
        } catch (err) {
          if (!isDuplicateKeyError(err)) throw err;
          // Lost the race for seq n+1 (or for the key): read again. A short random pause spreads a hot account's writers.
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
        .select({ type: 1, amount: 1 })
        .lean<Pick<LedgerEntryDoc, 'type' | 'amount'>[]>();
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
