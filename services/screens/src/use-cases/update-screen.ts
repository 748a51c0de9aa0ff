import { contentOfInputs, type Screen, type ScreenAssignment, type UpdateScreenRequest } from '@pagecast/contracts';
import { AppError, type AuditActor } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { ScreenRecord } from '../data';
import { inputsOf } from '../domain';
import { auditScreensChange, screenAuditSnapshot } from '../events/audit';
import { checkPlace } from './alert-place';
import { checkAssignment } from './fleet-common';
import { serialByOwner } from './fleet-lease';
import { givenWith, type HoursInForce, sameHours } from '../domain';
import type { ChangePlan } from './change-plan';
import { ownedScreen } from './owned-screen';
import { presentScreen } from './present-screen';

/**
 * Renames a screen, changes its zone, what it plays, its rotation or its opening hours; the display follows through
 * screens.screen.changed.v1; the change is recorded in the audit log. Under the owner's fleet lease, as every other
 * write of a screen's record: FerretDB writes an update back as the whole document it read, so a rename beside an
 * unpairing brought the screen back (2 of 20 rounds; test/screen-writes.test.ts).
 */
export async function updateScreen(
  ctx: ServiceContext,
  ownerId: string,
  screenId: string,
  input: UpdateScreenRequest,
  actor: AuditActor,
): Promise<Screen> {
  return serialByOwner(ctx, ownerId, async () => (await planUpdateScreen(ctx, ownerId, screenId, input)).apply(actor));
}

/** The checks of a screen's change (it is the owner's; its content, schedule and place), and the change. */
export async function planUpdateScreen(
  ctx: ServiceContext,
  ownerId: string,
  screenId: string,
  input: UpdateScreenRequest,
): Promise<ChangePlan<Screen>> {
  const screen = await ownedScreen(ctx, ownerId, screenId);
  const changesAssignment =
    input.assignment !== undefined && JSON.stringify(input.assignment) !== JSON.stringify(screen.assignment);
  // the rule of the fleet calls (a valid schedule; content that exists and is the member's or licensed), before any write
  if (changesAssignment && input.assignment) await checkAssignment(ctx, ownerId, input.assignment);
  if (input.place !== undefined) checkPlace(input.place);
  const [fleet, groups] = await Promise.all([
    ctx.data.fleet.fleets.get(ownerId),
    ctx.data.fleet.groups.byIds(screen.groupIds ?? []),
  ]);
  const groupsById = new Map(groups.map((g) => [g._id, g]));
  const settings = {
    ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
    // the display reads them from its manifest, re-read on the change event below
    ...(input.rotation !== undefined ? { rotation: input.rotation } : {}),
    ...(input.openingHours !== undefined ? { openingHours: input.openingHours } : {}),
  };
  // the hours in force: a change of them (its own, or its zone while some apply) is a history entry too
  const given = givenWith({ ...screen, ...settings }, screen.groupIds ?? [], groupsById, fleet.order);
  const changesHours = !sameHours(givenWith(screen, screen.groupIds ?? [], groupsById, fleet.order).hours, given.hours);
  const fields = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    // read by the alert feed only (the display never needs it): no history entry
    ...(input.place !== undefined ? { place: input.place } : {}),
    ...settings,
    ...(input.assignment !== undefined ? { assignment: input.assignment } : {}),
  };
  const after: ScreenRecord = { ...screen, ...fields };
  return {
    objects: [{ type: 'screen', id: screenId, before: screenAuditSnapshot(screen), after: screenAuditSnapshot(after) }],
    before: { screens: [screen], groupsById, fleet },
    after: { screens: [after], groupsById, fleet },
    apply: async (actor) => {
      const written = {
        ...fields,
        ...(changesAssignment || changesHours
          ? { assignmentSeq: await recordAssignment(ctx, screen, input.assignment ?? screen.assignment, given) }
          : {}),
      };
      await ctx.data.screens.set(screenId, written);
      // what its device may read: its own assignment's content, its groups' and its takeovers'
      const updated = { ...screen, ...written };
      await auditScreensChange(ctx, actor, {
        workspaceId: ownerId,
        action: 'screen.updated',
        object: { type: 'screen', id: screenId },
        before: screenAuditSnapshot(screen),
        after: screenAuditSnapshot(updated),
      });
      const inputs = inputsOf(updated, fleet, groupsById, ctx.clock.ms());
      await ctx.outbox.add('screens.screen.changed.v1', {
        screenId,
        ownerId,
        changedAt: new Date(ctx.clock.ms()).toISOString(),
        ...contentOfInputs(inputs),
      });
      return presentScreen(updated, await ctx.data.statuses.get(screenId), ctx.clock.ms());
    },
  };
}

/**
 * Adds the new assignment (with its groups' and the hours in force, `given`) to the screen's history (insert-only,
 * numbered) before the screen's record names it: a crash between leaves an entry the screen never played, never a
 * played assignment missing from the history (its records would be refused). A screen paired before the history
 * existed first gets what it played since its pairing.
 */
async function recordAssignment(
  ctx: ServiceContext,
  screen: ScreenRecord,
  assignment: ScreenAssignment,
  given: { groups: ScreenAssignment[]; hours: HoursInForce },
) {
  const { history } = ctx.data;
  let seq = screen.assignmentSeq;
  if (seq === undefined) {
    await history.insert(screen._id, 0, screen.pairedAt, screen.assignment);
    seq = 0;
  }
  const at = new Date(ctx.clock.ms());
  // its groups' assignments are given too: each entry holds them as they are now
  // a number taken (a change at the same moment, or one whose screen write failed) moves on to the next
  for (let next = seq + 1; next <= seq + 20; next++) {
    if (await history.insert(screen._id, next, at, assignment, given.groups, given.hours)) return next;
  }
  throw new AppError('SERVICE_UNAVAILABLE');
}
