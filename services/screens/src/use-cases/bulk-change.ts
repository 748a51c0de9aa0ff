// One change to many screens, all or nothing: the selection and the change are checked whole before
// anything is written (another member's screen or group, a missing playlist or file, a bad schedule: refused, nothing
// changes). FerretDB has no transactions, so the writes are made safe instead: the change is first recorded as
// intended (`screen_changes`, under its id), then applied by idempotent writes (each screen is set to the change's
// result, so applying it twice gives the same screens), then announced once (one event for the change, whatever the
// number of screens), then marked done. A crash in between leaves the intent pending: the service applies and
// announces every pending change again when it starts. Until then some screens may show the change and others not.
import { randomUUID } from 'node:crypto';
import { assignedContent, type BulkChange, type BulkChangeRequest, type BulkChangeResult } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import type { ScreenRecord } from '../data';
import type { ChangeDoc } from '../data/fleet';
import { type AuditActor, nameUuid } from '@pagecast/service-kit';
import { isOnline } from '../domain';
import type { ChangePlan, PlanOptions } from './change-plan';
import { auditScreensChange, screenAuditSnapshot } from '../events/audit';
import { announceFleetChange, checkAssignment } from './fleet-common';
import { serialByOwner } from './fleet-lease';
import { givenWith } from '../domain';
import { groupsInOrder, recordScreenInputs } from './fleet-history';
import { ownedGroup, ownedScreens } from './groups';

/** The screens a selection names, all the owner's, or the refusal (SCREEN_NOT_FOUND, SCREEN_GROUP_NOT_FOUND). */
async function selectScreens(
  ctx: ServiceContext,
  ownerId: string,
  selection: BulkChangeRequest['selection'],
): Promise<ScreenRecord[]> {
  if (selection.by === 'ids') return ownedScreens(ctx, ownerId, selection.screenIds);
  if (selection.groupId) await ownedGroup(ctx, ownerId, selection.groupId);
  let screens = await ctx.data.screens.listActive(ownerId);
  if (selection.groupId) {
    const groupId = selection.groupId;
    screens = screens.filter((s) => s.groupIds?.includes(groupId));
  }
  if (selection.by === 'group') return screens;
  if (selection.name) {
    const part = selection.name.toLowerCase();
    screens = screens.filter((s) => s.name.toLowerCase().includes(part));
  }
  if (selection.status) {
    const statuses = await ctx.data.statuses.forScreens(
      ownerId,
      screens.map((s) => s._id),
    );
    const now = ctx.clock.ms();
    const wanted = selection.status === 'online';
    screens = screens.filter((s) => isOnline(statuses.get(s._id)?.lastSeenAt ?? null, now) === wanted);
  }
  return screens;
}

async function checkChange(ctx: ServiceContext, ownerId: string, change: BulkChange): Promise<void> {
  if (change.kind === 'assign') await checkAssignment(ctx, ownerId, change.assignment, 'change.assignment');
  if (change.kind === 'add-to-group' || change.kind === 'remove-from-group')
    await ownedGroup(ctx, ownerId, change.groupId);
}

export async function bulkChange(
  ctx: ServiceContext,
  ownerId: string,
  input: BulkChangeRequest,
  actor: AuditActor,
): Promise<BulkChangeResult> {
  return serialByOwner(ctx, ownerId, async () => (await planBulkChange(ctx, ownerId, input)).apply(actor));
}

/** A bulk change's id when a proposal makes it: applied again after a crash, its recorded intent is found. */
export const proposedChangeId = (proposalId: string) => nameUuid(`screens.proposal.bulk:${proposalId}`, 'v5');

/** The selection and the change checked whole (nothing written), and the change as it would leave each screen. */
export async function planBulkChange(
  ctx: ServiceContext,
  ownerId: string,
  input: BulkChangeRequest,
  opts: PlanOptions = {},
): Promise<ChangePlan<BulkChangeResult>> {
  const changeId = opts.proposalId ? proposedChangeId(opts.proposalId) : randomUUID();
  // a proposal's change applied again (after a crash, or an attempt cut short): the intent recorded the first time is
  // applied (again) as it was recorded, like any bulk change resumed
  const recorded = opts.proposalId ? await ctx.data.fleet.changes.get(changeId) : null;
  const screens = recorded
    ? await ctx.data.screens.byIds(recorded.screenIds)
    : await selectScreens(ctx, ownerId, input.selection);
  if (!recorded) await checkChange(ctx, ownerId, input.change);
  const [groups, fleet] = await Promise.all([
    ctx.data.fleet.groups.ofOwner(ownerId),
    ctx.data.fleet.fleets.get(ownerId),
  ]);
  const groupsById = new Map(groups.map((g) => [g._id, g]));
  const change = input.change;
  const afterOf = (s: ScreenRecord): ScreenRecord => {
    switch (change.kind) {
      case 'assign':
        return { ...s, assignment: change.assignment };
      case 'add-to-group':
        return { ...s, groupIds: [...new Set([...(s.groupIds ?? []), change.groupId])] };
      case 'remove-from-group':
        return { ...s, groupIds: (s.groupIds ?? []).filter((g) => g !== change.groupId) };
      case 'set-time-zone':
        return { ...s, timeZone: change.timeZone };
      case 'unpair':
        return { ...s, revokedAt: new Date(ctx.clock.ms()) };
    }
  };
  const after = screens.map(afterOf);
  return {
    objects: screens.flatMap((s, i) => {
      const [was, will] = [screenAuditSnapshot(s), screenAuditSnapshot(after[i] as ScreenRecord)];
      // an unpairing's snapshot says nothing of it: the screen is listed with its end
      return JSON.stringify(was) === JSON.stringify(will) && change.kind !== 'unpair'
        ? []
        : [{ type: 'screen' as const, id: s._id, before: was, after: change.kind === 'unpair' ? null : will }];
    }),
    before: { screens, groupsById, fleet },
    after: { screens: after, groupsById, fleet },
    apply: async (actor) => {
      if (recorded) {
        if (!recorded.doneAt) await applyChange(ctx, recorded);
        return { changeId, screenIds: recorded.screenIds };
      }
      const doc: ChangeDoc = {
        _id: changeId,
        ownerId,
        kind: change.kind,
        screenIds: screens.map((s) => s._id),
        change: change as Record<string, unknown>,
        at: new Date(ctx.clock.ms()),
        doneAt: null,
        actor,
      };
      if (screens.length === 0) return { changeId: doc._id, screenIds: [] };
      await ctx.data.fleet.changes.insert(doc);
      await applyChange(ctx, doc);
      return { changeId: doc._id, screenIds: doc.screenIds };
    },
  };
}

/** Applies a recorded change (again, after a crash: every write sets the change's result), announces it, marks it done. */
export async function applyChange(ctx: ServiceContext, doc: ChangeDoc): Promise<void> {
  const change = doc.change as BulkChange;
  const { ownerId } = doc;
  // revoked since (an unpair applied before a crash) are left as they are
  const screens = (await ctx.data.screens.byIds(doc.screenIds)).filter((s) => s.ownerId === ownerId);
  const active = screens.filter((s) => !s.revokedAt);
  let content = { playlistIds: [] as string[], fileIds: [] as string[] };
  // the audit entry: each screen's changed value before and after (read before the writes)
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  switch (change.kind) {
    case 'assign': {
      const target = JSON.stringify(change.assignment);
      const todo = active.filter((s) => JSON.stringify(s.assignment) !== target);
      for (const s of todo) [before[s._id], after[s._id]] = [s.assignment, change.assignment];
      const groupIds = [...new Set(todo.flatMap((s) => s.groupIds ?? []))];
      const { byId, order } = await groupsInOrder(ctx, ownerId, groupIds);
      await recordScreenInputs(
        ctx,
        todo.map((screen) => ({
          screen,
          assignment: change.assignment,
          ...givenWith(screen, screen.groupIds ?? [], byId, order),
        })),
      );
      content = assignedContent(change.assignment);
      break;
    }
    case 'add-to-group':
    case 'remove-from-group': {
      const adding = change.kind === 'add-to-group';
      const todo = active.filter((s) => (s.groupIds ?? []).includes(change.groupId) !== adding);
      const next = (s: ScreenRecord) =>
        adding ? [...(s.groupIds ?? []), change.groupId] : (s.groupIds ?? []).filter((g) => g !== change.groupId);
      for (const s of todo) [before[s._id], after[s._id]] = [s.groupIds ?? [], next(s)];
      const groupIds = [...new Set([change.groupId, ...todo.flatMap((s) => s.groupIds ?? [])])];
      const { byId, order } = await groupsInOrder(ctx, ownerId, groupIds);
      await recordScreenInputs(
        ctx,
        todo.map((screen) => ({
          screen,
          assignment: screen.assignment,
          ...givenWith(screen, next(screen), byId, order),
          fields: { groupIds: next(screen) },
        })),
      );
      const group = byId.get(change.groupId);
      if (adding && group) content = assignedContent(group.assignment);
      break;
    }
    case 'set-time-zone': {
      // a screen with hours (its own or a group's) is closed at other instants in another zone: its history entry
      // holds the hours in the new zone; the others take the one updateMany
      for (const s of active.filter((a) => a.timeZone !== change.timeZone))
        [before[s._id], after[s._id]] = [s.timeZone, change.timeZone];
      const groupIds = [...new Set(active.flatMap((s) => s.groupIds ?? []))];
      const { byId, order } = await groupsInOrder(ctx, ownerId, groupIds);
      const withHours = active.flatMap((screen) => {
        if (screen.timeZone === change.timeZone) return [];
        const given = givenWith({ ...screen, timeZone: change.timeZone }, screen.groupIds ?? [], byId, order);
        return given.hours.openingHours === null ? [] : [{ screen, given }];
      });
      await recordScreenInputs(
        ctx,
        withHours.map(({ screen, given }) => ({
          screen,
          assignment: screen.assignment,
          ...given,
          fields: { timeZone: change.timeZone },
        })),
      );
      const hoursIds = new Set(withHours.map((w) => w.screen._id));
      await ctx.data.screens.updateMany(
        active.filter((s) => !hoursIds.has(s._id)).map((s) => s._id),
        { $set: { timeZone: change.timeZone } },
      );
      break;
    }
    case 'unpair': {
      const revokedAt = new Date(ctx.clock.ms());
      for (const s of active) [before[s._id], after[s._id]] = [null, revokedAt.toISOString()];
      await ctx.data.screens.updateMany(
        active.map((s) => s._id),
        { $set: { revokedAt } },
      );
      // the credential's own fact, per device: the gateway's revocation set and file-conversion's tombstones
      for (const s of screens) {
        await ctx.outbox.add(
          'screens.screen.revoked.v1',
          { screenId: s._id, deviceId: s.deviceId, ownerId, revokedAt: (s.revokedAt ?? revokedAt).toISOString() },
          // one id per change and screen, the same when a crashed change is applied again (an envelope's id is a UUID)
          { id: nameUuid(`screens.screen.revoked:${doc._id}:${s._id}`, 'v5') },
        );
      }
      break;
    }
  }
  if (doc.actor) {
    // keyed by the change's id: applied again after a crash, it is the same entry (stored and chained once)
    await auditScreensChange(ctx, doc.actor, {
      workspaceId: ownerId,
      action: 'bulk-change.applied',
      object: { type: 'bulk-change', id: doc._id },
      before: { kind: change.kind, screens: before },
      after: { kind: change.kind, screens: after },
      key: doc._id,
    });
  }
  await announceFleetChange(ctx, { changeId: doc._id, kind: change.kind, ownerId, screenIds: doc.screenIds, content });
  await ctx.data.fleet.changes.done(doc._id, new Date(ctx.clock.ms()));
}

/** At start: every change recorded but not marked done (a crash mid-change) is applied and announced again. */
export async function resumePendingChanges(ctx: ServiceContext): Promise<number> {
  const pending = await ctx.data.fleet.changes.pending();
  for (const doc of pending) await serialByOwner(ctx, doc.ownerId, () => applyChange(ctx, doc));
  return pending.length;
}
