import { subjects } from '@pagecast/contracts';
import { nameUuid, publishAudit } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { AppendInput, AppendResult, LedgerEntryDoc } from '../data';
import { PLATFORM_ACCOUNT } from '../domain/fees';
import { isSaleProceeds } from '../domain/ledger';

/**
 * Points bought by card in the buyer's audit log (their own workspace: the points go to their own ledger): amounts
 * as numbers, the price's currency as a code. The buyer is the actor; the address is the one of the call that
 * credited it ('' when the provider's webhook did). Its id derives from the entry, so a repeat is the same entry.
 */
async function auditPurchase(ctx: ServiceContext, entry: LedgerEntryDoc): Promise<void> {
  const address = entry.meta?.address;
  await publishAudit(
    ctx.outbox,
    'billing',
    {
      workspaceId: entry.accountId,
      actor: { userId: entry.accountId, address: typeof address === 'string' ? address : '' },
      action: 'points.bought',
      object: { type: 'points-purchase', id: entry._id },
      before: null,
      after: {
        points: entry.amount,
        price: { amount: entry.amount, currency: 'JPY' },
        paymentIntentId: entry.paymentIntentId,
        balance: entry.balance,
      },
      key: entry._id,
    },
    entry.createdAt,
  );
}

/**
 * billing.points.changed.v1 of an entry (and a card purchase's audit entry); their ids derive from the entry, so
 * announcing twice (the sweep after a crash) publishes once. Both before the entry is marked announced.
 */
export async function announceEntry(ctx: ServiceContext, entry: LedgerEntryDoc): Promise<void> {
  if (entry.reason?.kind === 'pointsPurchase') await auditPurchase(ctx, entry);
  if (entry.accountId !== PLATFORM_ACCOUNT) {
    await ctx.outbox.add(
      subjects.pointsChanged,
      {
        userId: entry.accountId,
        balance: entry.balance,
        entryId: entry._id,
        amount: entry.amount,
        type: entry.type,
        occurredAt: entry.createdAt.toISOString(),
        ...(isSaleProceeds(entry) ? { sale: true } : {}),
      },
      { id: nameUuid(`billing.points.changed:${entry._id}`, 'v5') },
    );
  }
  await ctx.data.ledger.markAnnounced(entry._id);
}

/**
 * Appends one ledger entry (idempotent by its key) and announces it. A crash between the two leaves the entry
 * unannounced; the announcement sweep (use-cases/announce-pending.ts) sends it later.
 */
export async function postEntry(ctx: ServiceContext, input: AppendInput): Promise<AppendResult> {
  const result = await ctx.data.ledger.append(input, () => ctx.clock.now());
  if (result.status === 'applied' && !result.entry.announced) {
    // The entry is recorded: a failed announcement must not fail the operation (the sweep announces it later).
    await announceEntry(ctx, result.entry).catch((err: unknown) =>
      ctx.logger.warn({ err, entryId: result.entry._id }, 'announcement deferred to the sweep'),
    );
  }
  return result;
}
