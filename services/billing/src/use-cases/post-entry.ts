import { subjects } from '@pagecast/contracts';
import { nameUuid } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { AppendInput, AppendResult, LedgerEntryDoc } from '../data';
import { PLATFORM_ACCOUNT } from '../domain/fees';
import { isSaleProceeds } from '../domain/ledger';

/** billing.points.changed.v1 of an entry; its id derives from the entry, so announcing twice publishes once. */
export async function announceEntry(ctx: ServiceContext, entry: LedgerEntryDoc): Promise<void> {
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
