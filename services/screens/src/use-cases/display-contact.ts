import { SCREEN_OFFLINE_AFTER_SECONDS } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import type { ScreenRecord } from '../data';

const OFFLINE_MS = SCREEN_OFFLINE_AFTER_SECONDS * 1000;

/**
 * A display's heartbeat or play batch arrived. When its last contact (heartbeat, play batch, or the pairing itself)
 * is older than a screen stays online, the time between is an offline gap, recorded once (one write per
 * reconnection, not per heartbeat): records that start in it may show what the display last received.
 * Most calls read nothing: this process remembers the contacts it handled; the status bucket is read only when it
 * knows of none recent, and the play ledger (its last batch) only when the bucket has forgotten the display too.
 * `lastBatchAt`: the screen's last play batch, when the caller has it at hand.
 */
export async function noteContact(
  ctx: ServiceContext,
  screen: ScreenRecord,
  now: number,
  lastBatchAt?: Date | null,
): Promise<void> {
  const { statuses } = ctx.data;
  const none = Number.NEGATIVE_INFINITY;
  let last = Math.max(
    screen.pairedAt.getTime(),
    statuses.contactSeenHere(screen._id) ?? none,
    lastBatchAt?.getTime() ?? none,
  );
  if (now - last > OFFLINE_MS) {
    const status = await statuses.get(screen._id);
    if (status && status.ownerId === screen.ownerId) last = Math.max(last, status.lastSeenAt.getTime());
  }
  if (now - last > OFFLINE_MS && lastBatchAt === undefined) {
    // the bucket forgets a display a day after its last heartbeat; its last play batch is kept
    last = Math.max(last, (await ctx.data.ledger.get(screen._id)).lastBatchAt?.getTime() ?? none);
  }
  if (now - last > OFFLINE_MS) await ctx.data.gaps.record(screen._id, { from: last, to: now }, now);
  statuses.noteContact(screen._id, now);
}
