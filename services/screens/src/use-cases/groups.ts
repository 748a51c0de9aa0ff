// Groups of screens: a member's named sets of their screens (a screen may be in several), each with an
// assignment like a screen's, in a precedence order the member sets. Membership lives on the screens' records
// (`groupIds`), so a display's manifest reads its groups by `_id`; the owner's order in their fleet document.
import { randomUUID } from 'node:crypto';
import {
  ALERT_AFTER_MINUTES_DEFAULT,
  assignedContent,
  type CreateGroupRequest,
  type GroupOrderRequest,
  SCREEN_GROUPS_MAX,
  type ScreenGroup,
  type UpdateGroupRequest,
} from '@pagecast/contracts';
import { AppError, type AuditActor, nameUuid } from '@pagecast/service-kit';
import type { ChangePlan, PlanOptions } from './change-plan';
import type { ServiceContext } from '../context';
import type { GroupDoc, ScreenRecord } from '../data';
import { orderGroups } from '../domain';
import { auditScreensChange, groupAuditSnapshot } from '../events/audit';
import { checkPlace } from './alert-place';
import { announceFleetChange, checkAssignment } from './fleet-common';
import { serialByOwner } from './fleet-lease';
import { givenWith } from '../domain';
import { groupsInOrder, recordScreenInputs } from './fleet-history';

export const nameKeyOf = (name: string) => name.normalize('NFKC').trim().toLowerCase();

function present(g: GroupDoc, rank: number, screens: ScreenRecord[]): ScreenGroup {
  return {
    id: g._id,
    name: g.name,
    screenIds: screens.filter((s) => s.groupIds?.includes(g._id)).map((s) => s._id),
    assignment: g.assignment,
    rank,
    createdAt: g.createdAt.toISOString(),
    openingHours: g.openingHours ?? null,
    alertAfterMinutes: g.alertAfterMinutes ?? ALERT_AFTER_MINUTES_DEFAULT,
    place: g.place ?? null,
  };
}

export async function listGroups(ctx: ServiceContext, ownerId: string): Promise<ScreenGroup[]> {
  const [groups, fleet, screens] = await Promise.all([
    ctx.data.fleet.groups.ofOwner(ownerId),
    ctx.data.fleet.fleets.get(ownerId),
    ctx.data.screens.listActive(ownerId),
  ]);
  return orderGroups(groups, fleet.order).map((g, i) => present(g, i, screens));
}

/** The owner's group, or SCREEN_GROUP_NOT_FOUND (another member's group is not found either). */
export async function ownedGroup(ctx: ServiceContext, ownerId: string, groupId: string): Promise<GroupDoc> {
  const [group] = await ctx.data.fleet.groups.byIds([groupId]);
  if (!group || group.ownerId !== ownerId) throw new AppError('SCREEN_GROUP_NOT_FOUND', { details: { groupId } });
  return group;
}

/** The owner's active screens of these ids, or SCREEN_NOT_FOUND naming those that are not. */
export async function ownedScreens(ctx: ServiceContext, ownerId: string, ids: string[]): Promise<ScreenRecord[]> {
  const unique = [...new Set(ids)];
  const found = unique.length > 0 ? await ctx.data.screens.byIds(unique) : [];
  const mine = new Map(found.filter((s) => s.ownerId === ownerId && !s.revokedAt).map((s) => [s._id, s]));
  const missing = unique.filter((id) => !mine.has(id));
  if (missing.length > 0) throw new AppError('SCREEN_NOT_FOUND', { details: { screenIds: missing.slice(0, 100) } });
  return unique.map((id) => mine.get(id) as ScreenRecord);
}

async function checkName(ctx: ServiceContext, ownerId: string, name: string, except?: string): Promise<string> {
  const key = nameKeyOf(name);
  const groups = await ctx.data.fleet.groups.ofOwner(ownerId);
  if (groups.some((g) => g.nameKey === key && g._id !== except)) throw new AppError('SCREEN_GROUP_NAME_TAKEN');
  return key;
}

/**
 * Writes the screens whose groups change (their membership and history entries) after the group itself: a crash
 * between leaves a group with fewer members than asked (the member sees it and sets them again), never a screen
 * naming a group that does not exist.
 */
async function rewriteMembers(
  ctx: ServiceContext,
  ownerId: string,
  screens: Array<{ screen: ScreenRecord; groupIds: string[] }>,
): Promise<void> {
  if (screens.length === 0) return;
  const allGroupIds = [...new Set(screens.flatMap((s) => s.groupIds))];
  const { byId, order } = await groupsInOrder(ctx, ownerId, allGroupIds);
  await recordScreenInputs(
    ctx,
    screens.map(({ screen, groupIds }) => ({
      screen,
      assignment: screen.assignment,
      ...givenWith(screen, groupIds, byId, order),
      fields: { groupIds },
    })),
  );
}

/** A group's id when a proposal creates it: derived from the proposal, so applying it again finds the group made. */
export const proposedGroupId = (proposalId: string) => nameUuid(`screens.proposal.group:${proposalId}`, 'v5');

/** The fleet event's id of a proposal's change: announced again after a crash, it is sent once. */
const proposalChangeId = (opts: PlanOptions) =>
  opts.proposalId ? nameUuid(`screens.proposal.change:${opts.proposalId}`, 'v5') : undefined;

/** The owner's groups by id and the order: what every group plan reads. */
async function fleetOf(ctx: ServiceContext, ownerId: string) {
  const [groups, fleet] = await Promise.all([
    ctx.data.fleet.groups.ofOwner(ownerId),
    ctx.data.fleet.fleets.get(ownerId),
  ]);
  return { groupsById: new Map(groups.map((g) => [g._id, g])), fleet };
}

const withGroupIds = (s: ScreenRecord, groupIds: string[]): ScreenRecord => ({ ...s, groupIds });

export async function createGroup(
  ctx: ServiceContext,
  ownerId: string,
  input: CreateGroupRequest,
  actor: AuditActor,
): Promise<ScreenGroup> {
  return serialByOwner(ctx, ownerId, async () => (await planCreateGroup(ctx, ownerId, input)).apply(actor));
}

/** The checks of a new group (the limit, its name, its screens, content and place), and its creation. */
export async function planCreateGroup(
  ctx: ServiceContext,
  ownerId: string,
  input: CreateGroupRequest,
  opts: PlanOptions = {},
): Promise<ChangePlan<ScreenGroup>> {
  const groupId = opts.proposalId ? proposedGroupId(opts.proposalId) : randomUUID();
  const state = await fleetOf(ctx, ownerId);
  // applied again after a crash: the group made the first time is not counted nor its name taken
  const made = state.groupsById.get(groupId);
  if (!made && (await ctx.data.fleet.groups.countOf(ownerId)) >= SCREEN_GROUPS_MAX) {
    throw new AppError('SCREEN_GROUP_LIMIT', { details: { max: SCREEN_GROUPS_MAX } });
  }
  const nameKey = await checkName(ctx, ownerId, input.name, groupId);
  const members = await ownedScreens(ctx, ownerId, input.screenIds);
  await checkAssignment(ctx, ownerId, input.assignment);
  checkPlace(input.place);
  const group: GroupDoc = made ?? {
    _id: groupId,
    ownerId,
    name: input.name,
    nameKey,
    assignment: input.assignment,
    createdAt: new Date(ctx.clock.ms()),
    openingHours: input.openingHours,
    alertAfterMinutes: input.alertAfterMinutes,
    place: input.place,
  };
  const joined = (s: ScreenRecord) => [...new Set([...(s.groupIds ?? []), group._id])];
  const order = [...state.fleet.order.filter((id) => id !== group._id), group._id];
  return {
    objects: [
      {
        type: 'group',
        id: group._id,
        before: null,
        after: groupAuditSnapshot(
          group,
          members.map((s) => s._id),
        ),
      },
    ],
    before: { screens: members, ...state },
    after: {
      screens: members.map((s) => withGroupIds(s, joined(s))),
      groupsById: new Map([...state.groupsById, [group._id, group]]),
      fleet: { ...state.fleet, order },
    },
    apply: async (actor) => {
      if (!made && !(await ctx.data.fleet.groups.insert(group))) throw new AppError('SCREEN_GROUP_NAME_TAKEN');
      const fleet = await ctx.data.fleet.fleets.get(ownerId);
      await ctx.data.fleet.fleets.set({
        ...fleet,
        order: [...fleet.order.filter((id) => id !== group._id), group._id],
      });
      await rewriteMembers(
        ctx,
        ownerId,
        members.filter((s) => !s.groupIds?.includes(group._id)).map((screen) => ({ screen, groupIds: joined(screen) })),
      );
      await auditScreensChange(ctx, actor, {
        workspaceId: ownerId,
        action: 'group.created',
        object: { type: 'group', id: group._id },
        before: null,
        after: groupAuditSnapshot(
          group,
          members.map((s) => s._id),
        ),
      });
      await announceFleetChange(ctx, {
        changeId: proposalChangeId(opts),
        kind: 'group-created',
        ownerId,
        groupId: group._id,
        screenIds: members.map((s) => s._id),
        content: assignedContent(group.assignment),
      });
      const all = await listGroups(ctx, ownerId);
      return all.find((g) => g.id === group._id) as ScreenGroup;
    },
  };
}

export async function updateGroup(
  ctx: ServiceContext,
  ownerId: string,
  groupId: string,
  input: UpdateGroupRequest,
  actor: AuditActor,
): Promise<ScreenGroup> {
  return serialByOwner(ctx, ownerId, async () => (await planUpdateGroup(ctx, ownerId, groupId, input)).apply(actor));
}

/** The checks of a group's change (it is the owner's, its name, screens, content, place), and the change. */
export async function planUpdateGroup(
  ctx: ServiceContext,
  ownerId: string,
  groupId: string,
  input: UpdateGroupRequest,
  opts: PlanOptions = {},
): Promise<ChangePlan<ScreenGroup>> {
  const group = await ownedGroup(ctx, ownerId, groupId);
  const nameKey = input.name !== undefined ? await checkName(ctx, ownerId, input.name, groupId) : undefined;
  const members = input.screenIds !== undefined ? await ownedScreens(ctx, ownerId, input.screenIds) : undefined;
  if (input.assignment) await checkAssignment(ctx, ownerId, input.assignment);
  if (input.place !== undefined) checkPlace(input.place);
  const [active, state] = await Promise.all([ctx.data.screens.listActive(ownerId), fleetOf(ctx, ownerId)]);
  const current = active.filter((s) => s.groupIds?.includes(groupId));

  const fields: Partial<GroupDoc> = {
    ...(input.name !== undefined ? { name: input.name, nameKey } : {}),
    ...(input.assignment ? { assignment: input.assignment } : {}),
    ...(input.openingHours !== undefined ? { openingHours: input.openingHours } : {}),
    ...(input.alertAfterMinutes !== undefined ? { alertAfterMinutes: input.alertAfterMinutes } : {}),
    ...(input.place !== undefined ? { place: input.place } : {}),
  };
  const assignmentChanged =
    input.assignment !== undefined && JSON.stringify(input.assignment) !== JSON.stringify(group.assignment);
  const next = new Map<string, { screen: ScreenRecord; groupIds: string[] }>();
  if (members) {
    const wanted = new Set(members.map((s) => s._id));
    for (const s of current) {
      if (!wanted.has(s._id)) next.set(s._id, { screen: s, groupIds: (s.groupIds ?? []).filter((g) => g !== groupId) });
    }
    for (const s of members) {
      if (!s.groupIds?.includes(groupId)) next.set(s._id, { screen: s, groupIds: [...(s.groupIds ?? []), groupId] });
    }
  }
  // new hours reach every member's display (its manifest says the hours that apply), and each member's history
  // entry holds the hours that apply from now (proof of play refuses records made while closed; a member with
  // hours of its own, or an earlier group's, gets an entry with unchanged hours: harmless)
  const hoursChanged =
    input.openingHours !== undefined &&
    JSON.stringify(input.openingHours) !== JSON.stringify(group.openingHours ?? null);
  if (assignmentChanged || hoursChanged) {
    for (const s of current) if (!next.has(s._id)) next.set(s._id, { screen: s, groupIds: s.groupIds ?? [] });
  }
  const currentIds = current.map((s) => s._id);
  const snapshots = {
    before: groupAuditSnapshot(group, currentIds),
    after: groupAuditSnapshot({ ...group, ...fields }, members ? members.map((s) => s._id) : currentIds),
  };
  const touched = [...new Map([...current, ...(members ?? [])].map((s) => [s._id, s])).values()];
  return {
    objects: [{ type: 'group', id: groupId, ...snapshots }],
    before: { screens: touched, ...state },
    after: {
      screens: touched.map((s) => withGroupIds(s, next.get(s._id)?.groupIds ?? s.groupIds ?? [])),
      groupsById: new Map([...state.groupsById, [groupId, { ...group, ...fields }]]),
      fleet: state.fleet,
    },
    apply: async (actor) => {
      if (Object.keys(fields).length > 0 && !(await ctx.data.fleet.groups.set(groupId, fields))) {
        throw new AppError('SCREEN_GROUP_NAME_TAKEN');
      }
      await rewriteMembers(ctx, ownerId, [...next.values()]);
      await auditScreensChange(ctx, actor, {
        workspaceId: ownerId,
        action: 'group.updated',
        object: { type: 'group', id: groupId },
        ...snapshots,
      });
      const told = new Set(next.keys());
      if (told.size > 0) {
        await announceFleetChange(ctx, {
          changeId: proposalChangeId(opts),
          kind: 'group-changed',
          ownerId,
          groupId,
          screenIds: [...told],
          content: assignedContent(input.assignment ?? group.assignment),
        });
      }
      const all = await listGroups(ctx, ownerId);
      return all.find((g) => g.id === groupId) as ScreenGroup;
    },
  };
}

export async function deleteGroup(
  ctx: ServiceContext,
  ownerId: string,
  groupId: string,
  actor: AuditActor,
): Promise<void> {
  return serialByOwner(ctx, ownerId, async () => (await planDeleteGroup(ctx, ownerId, groupId)).apply(actor));
}

/** A group's deletion: it is the owner's; its screens stop naming it. */
export async function planDeleteGroup(
  ctx: ServiceContext,
  ownerId: string,
  groupId: string,
  opts: PlanOptions = {},
): Promise<ChangePlan<void>> {
  const state = await fleetOf(ctx, ownerId);
  // applied again after a crash past the deletion: done already
  if (opts.resume && !state.groupsById.has(groupId)) {
    return { objects: [], before: { screens: [], ...state }, after: { screens: [], ...state }, apply: async () => {} };
  }
  const group = await ownedGroup(ctx, ownerId, groupId);
  const members = (await ctx.data.screens.listActive(ownerId)).filter((s) => s.groupIds?.includes(groupId));
  const left = (s: ScreenRecord) => (s.groupIds ?? []).filter((g) => g !== groupId);
  const before = groupAuditSnapshot(
    group,
    members.map((s) => s._id),
  );
  const groupsById = new Map(state.groupsById);
  groupsById.delete(groupId);
  return {
    objects: [{ type: 'group', id: groupId, before, after: null }],
    before: { screens: members, ...state },
    after: {
      screens: members.map((s) => withGroupIds(s, left(s))),
      groupsById,
      fleet: { ...state.fleet, order: state.fleet.order.filter((id) => id !== groupId) },
    },
    apply: async (actor) => {
      // the screens first (they stop naming it), then the group: a crash between leaves an empty group
      await rewriteMembers(
        ctx,
        ownerId,
        members.map((screen) => ({ screen, groupIds: left(screen) })),
      );
      await ctx.data.fleet.groups.remove(groupId);
      const fleet = await ctx.data.fleet.fleets.get(ownerId);
      await ctx.data.fleet.fleets.set({ ...fleet, order: fleet.order.filter((id) => id !== groupId) });
      await auditScreensChange(ctx, actor, {
        workspaceId: ownerId,
        action: 'group.deleted',
        object: { type: 'group', id: groupId },
        before,
        after: null,
      });
      await announceFleetChange(ctx, {
        changeId: proposalChangeId(opts),
        kind: 'group-deleted',
        ownerId,
        groupId,
        screenIds: members.map((s) => s._id),
      });
    },
  };
}

/** The groups named first, in that order; any group not named keeps its place after them. */
export async function setGroupOrder(
  ctx: ServiceContext,
  ownerId: string,
  input: GroupOrderRequest,
  actor: AuditActor,
): Promise<ScreenGroup[]> {
  return serialByOwner(ctx, ownerId, async () => (await planGroupOrder(ctx, ownerId, input)).apply(actor));
}

/** The order's checks (each group named once, each the owner's) and the new order. */
export async function planGroupOrder(
  ctx: ServiceContext,
  ownerId: string,
  input: GroupOrderRequest,
  opts: PlanOptions = {},
): Promise<ChangePlan<ScreenGroup[]>> {
  if (new Set(input.groupIds).size !== input.groupIds.length) {
    throw new AppError('VALIDATION', {
      issues: [{ path: 'groupIds', message: 'a group named twice', key: 'validation.invalid' }],
    });
  }
  const groups = await ctx.data.fleet.groups.ofOwner(ownerId);
  const mine = new Set(groups.map((g) => g._id));
  const unknown = input.groupIds.find((id) => !mine.has(id));
  if (unknown) throw new AppError('SCREEN_GROUP_NOT_FOUND', { details: { groupId: unknown } });
  const fleet = await ctx.data.fleet.fleets.get(ownerId);
  const was = orderGroups(groups, fleet.order).map((g) => g._id);
  const order = [...input.groupIds, ...was.filter((id) => !input.groupIds.includes(id))];
  // every screen in two or more groups resolves differently now (and may follow another group's hours)
  const screens = (await ctx.data.screens.listActive(ownerId)).filter((s) => (s.groupIds ?? []).length > 1);
  const byId = new Map(groups.map((g) => [g._id, g]));
  return {
    objects: [{ type: 'group-order', id: ownerId, before: { groupIds: was }, after: { groupIds: order } }],
    before: { screens, groupsById: byId, fleet },
    after: { screens, groupsById: byId, fleet: { ...fleet, order } },
    apply: async (actor) => {
      await ctx.data.fleet.fleets.set({ ...(await ctx.data.fleet.fleets.get(ownerId)), order });
      // the same order set again changes nothing: no entry
      if (JSON.stringify(was) !== JSON.stringify(order)) {
        await auditScreensChange(ctx, actor, {
          workspaceId: ownerId,
          action: 'group.order-set',
          object: { type: 'group-order', id: ownerId },
          before: { groupIds: was },
          after: { groupIds: order },
        });
      }
      // each such screen's history entry holds the new order and the hours that apply
      await recordScreenInputs(
        ctx,
        screens.map((screen) => ({
          screen,
          assignment: screen.assignment,
          ...givenWith(screen, screen.groupIds ?? [], byId, order),
        })),
      );
      await announceFleetChange(ctx, {
        changeId: proposalChangeId(opts),
        kind: 'group-order',
        ownerId,
        screenIds: screens.map((s) => s._id),
      });
      return listGroups(ctx, ownerId);
    },
  };
}
