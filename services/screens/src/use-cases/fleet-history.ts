// What each screen was given, groups included: a change to a screen's groups (members, a group's
// assignment, a group deleted) adds an entry to each touched screen's assignment history (one unordered insert for
// all of them), before the screens' records name the new number, as update-screen does for one screen. Proof of play
// reads the entries: a file of any of its groups' assignments was given. Each entry also holds the opening hours that
// apply from then and the screen's zone: every change of what settingsOf(...).openingHours gives (the
// screen's hours or zone, a group's hours, its groups' membership or order, a group deleted) writes an entry too.
import type { ScreenAssignment } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { ScreenRecord } from '../data';
import type { HoursInForce } from '../domain';

/** These groups of the owner by id, and the owner's group order: what givenWith reads of the fleet. */
export async function groupsInOrder(ctx: ServiceContext, ownerId: string, groupIds: string[]) {
  const [groups, fleet] = await Promise.all([
    ctx.data.fleet.groups.byIds(groupIds),
    ctx.data.fleet.fleets.get(ownerId),
  ]);
  return { byId: new Map(groups.map((g) => [g._id, g])), order: fleet.order };
}

/**
 * Writes each screen's next history entry (its own assignment, groups and hours as given), then the screens' records
 * (assignmentSeq, and the fields given). Idempotent per screen: a screen whose number was taken moves on to the next.
 */
export async function recordScreenInputs(
  ctx: ServiceContext,
  writes: Array<{
    screen: ScreenRecord;
    assignment: ScreenAssignment;
    groups: ScreenAssignment[];
    hours: HoursInForce;
    fields?: Partial<Omit<ScreenRecord, '_id'>>;
  }>,
): Promise<void> {
  const { history } = ctx.data;
  const at = new Date(ctx.clock.ms());
  const seqOf = new Map<string, number>();
  // screens paired before the history existed first get what they played since their pairing
  for (const w of writes) {
    let seq = w.screen.assignmentSeq;
    if (seq === undefined) {
      await history.insert(w.screen._id, 0, w.screen.pairedAt, w.screen.assignment);
      seq = 0;
    }
    seqOf.set(w.screen._id, seq + 1);
  }
  let pending = writes;
  for (let round = 0; pending.length > 0; round++) {
    if (round >= 20) throw new AppError('SERVICE_UNAVAILABLE');
    const taken = await history.insertEach(
      pending.map((w) => ({
        screenId: w.screen._id,
        seq: seqOf.get(w.screen._id) as number,
        at,
        assignment: w.assignment,
        ...(w.groups.length > 0 ? { groups: w.groups } : {}),
        hours: w.hours,
      })),
    );
    for (const id of taken) seqOf.set(id, (seqOf.get(id) as number) + 1);
    pending = pending.filter((w) => taken.has(w.screen._id));
  }
  await ctx.data.screens.setEach(
    writes.map((w) => ({
      id: w.screen._id,
      fields: { ...(w.fields ?? {}), assignment: w.assignment, assignmentSeq: seqOf.get(w.screen._id) as number },
    })),
  );
}
