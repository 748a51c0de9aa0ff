// Opening hours set before history entries held them : such a screen's newest entry has no hours,
// which proof of play reads as "always open", so its records made while closed would count until its next change.
// Once per deployment (server.ts claims it), each active screen with hours in force whose newest entry holds none gets one more entry (what it is
// given, unchanged, and those hours) from now: what it played before stays judged as before (when its hours were set
// is not known). The entry is inserted under the next number (the one atomic step), and the screen's record moves to
// it only if no change moved it meanwhile; a screen whose next number a change took is left to that change (its entry
// holds the hours). Idempotent: a screen whose newest entry holds hours is left alone.
import type { ServiceContext } from '../context';
import type { ScreenRecord } from '../data';
import { givenWith } from '../domain';
import { serialByOwner } from './fleet-lease';

/** Screens read per query. */
const BATCH = 500;

export async function recordHoursInForce(ctx: ServiceContext): Promise<number> {
  const { history, screens, view } = ctx.data;
  const now = ctx.clock.ms();
  let written = 0;
  const record = async (batch: ScreenRecord[]) => {
    const entries = [];
    for (const screen of batch) {
      // screens paired before the history existed (no number) are judged by what they play now: nothing to add
      const seq = screen.assignmentSeq;
      if (seq === undefined) continue;
      const groupIds = screen.groupIds ?? [];
      // no hours of its own and no group: always open (most screens; nothing is read for them)
      if ((screen.openingHours == null || screen.openingHours.length === 0) && groupIds.length === 0) continue;
      // the owner's order and the screen's groups from the device view (loaded at start: no query)
      const [fleet, found] = await Promise.all([view.fleet(screen.ownerId), view.groups(groupIds)]);
      const groupsById = new Map(found.map((g) => [g._id, g]));
      const { groups, hours } = givenWith(screen, groupIds, groupsById, fleet.order);
      if (hours.openingHours === null) continue;
      if ((await history.since(screen._id, seq, now)).at(-1)?.openingHours != null) continue;
      entries.push({
        screenId: screen._id,
        ownerId: screen.ownerId,
        seq: seq + 1,
        at: new Date(now),
        assignment: screen.assignment,
        ...(groups.length > 0 ? { groups } : {}),
        hours,
      });
    }
    if (entries.length === 0) return;
    const taken = await history.insertEach(entries.map(({ ownerId: _, ...entry }) => entry));
    for (const e of entries) {
      if (taken.has(e.screenId)) continue;
      // under the owner's fleet lease, as every write of a screen's record (update-screen.ts says why)
      await serialByOwner(ctx, e.ownerId, () => screens.advanceSeq(e.screenId, e.seq - 1, e.seq));
      written++;
    }
  };
  for await (const batch of screens.activeInBatches(BATCH)) await record(batch);
  return written;
}
