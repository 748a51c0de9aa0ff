// What the fleet use cases share (issue 37): one owner's fleet changes run one at a time (across instances), every
// playlist and file a member names is checked against the read models, and each change is announced once.
import { randomUUID } from 'node:crypto';
import {
  assignedContent,
  type ResolutionInputs,
  type ScreenAssignment,
  scheduleProblems,
  type TakeoverContent,
  type TakeoverWindow,
} from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { FleetDoc, GroupDoc, RunningTakeover, ScreenRecord } from '../data';
import { mayAssign } from '../domain';

/** How long an instance holds an owner's fleet lease at most (a crashed holder's lease is taken over after it). */
export const FLEET_LEASE_MS = 60_000;
/** How long a change waits for another instance's change of the same owner before answering FLEET_BUSY. */
export const FLEET_LEASE_WAIT_MS = 15_000;

const fleetLease = (ctx: ServiceContext, ownerId: string, fn: () => Promise<unknown>, queue: boolean) =>
  ctx.data.leases.withLease(`fleet:${ownerId}`, fn, {
    ms: FLEET_LEASE_MS,
    waitMs: FLEET_LEASE_WAIT_MS,
    busy: () => new AppError('FLEET_BUSY'),
    queue,
  });

/**
 * One owner's fleet changes (groups, order, bulk changes, takeovers) one at a time: a check (an overlapping takeover,
 * a taken name, the group limit) and the write it guards are never interleaved with another change of the same
 * owner. In this process the callers wait in line; across instances by a lease (`fleet:<owner>`, the kit's lease: an
 * insert under a unique key, the one write FerretDB makes atomic: docs/platform.md), so the limits and the overlap
 * check are exact with any number of replicas. A change that cannot get the lease within FLEET_LEASE_WAIT_MS answers
 * FLEET_BUSY (409).
 */
export function serialByOwner<T>(ctx: ServiceContext, ownerId: string, fn: () => Promise<T>): Promise<T> {
  return fleetLease(ctx, ownerId, fn, true) as Promise<T>;
}

/** The owner's lease alone, without this process's line (two instances in one test process). */
export function withFleetLease<T>(ctx: ServiceContext, ownerId: string, fn: () => Promise<T>): Promise<T> {
  return fleetLease(ctx, ownerId, fn, false) as Promise<T>;
}

/**
 * How long a check waits for content this instance has not heard of before refusing it: a playlist or file saved (or
 * a licence bought) a moment ago is announced after its write, so a member who saves and assigns at once can be
 * faster than the event. A playlist known to be another's or deleted, and a deleted file, are refused at once; another
 * member's file without a live licence waits too (a purchase a moment ago), then is refused.
 */
export const CONTENT_GRACE_MS = 2_000;
/** How often the content view (memory, with every event heard applied) is looked at meanwhile. */
const CONTENT_POLL_MS = 100;

/**
 * `read(true)` (afresh) until `settled`, polling the memory view (`read(false)`: events are applied to it as they are
 * heard) every CONTENT_POLL_MS for at most CONTENT_GRACE_MS, then one last fresh read. Real time, not the service's
 * clock: it is how long the member waits.
 */
async function untilSettled<T>(read: (fresh: boolean) => Promise<T>, settled: (v: T) => boolean): Promise<T> {
  let value = await read(true);
  const deadline = Date.now() + CONTENT_GRACE_MS;
  while (!settled(value)) {
    if (Date.now() >= deadline) return read(true);
    await new Promise((r) => setTimeout(r, CONTENT_POLL_MS));
    value = await read(false);
  }
  return value;
}

/**
 * A file the member may show: domain/file-use `mayAssign` (theirs and not deleted, or bought with a licence live now).
 * A file not known yet, or another's without a live licence (a purchase a moment ago), is waited for a little
 * (CONTENT_GRACE_MS).
 */
export async function checkFile(ctx: ServiceContext, ownerId: string, fileId: string, now: number): Promise<void> {
  const { file, periods } = await untilSettled(
    async (fresh) => {
      const file = (await ctx.data.content.files([fileId], now, fresh)).get(fileId);
      const periods =
        file && file.deletedAt === null && file.ownerId !== ownerId
          ? ((await ctx.data.content.licences(ownerId, [fileId], now, fresh)).get(fileId) ?? [])
          : [];
      return { file, periods };
    },
    // a deleted file is refused at once; only what may still arrive is waited for
    ({ file, periods }) => file !== undefined && (file.deletedAt !== null || mayAssign(file, ownerId, periods, now)),
  );
  if (!mayAssign(file, ownerId, periods, now)) throw new AppError('FILE_NOT_FOUND', { details: { fileId } });
}

/**
 * Every playlist and file of an assignment exists and is the member's (or licensed), and a schedule is valid: the
 * one rule of every call that gives screens content (a screen's own, a group's, a bulk assign). A playlist not known
 * yet is waited for a little (CONTENT_GRACE_MS); one deleted or another member's is refused at once.
 */
export async function checkAssignment(
  ctx: ServiceContext,
  ownerId: string,
  assignment: ScreenAssignment,
  path = 'assignment',
): Promise<void> {
  if (assignment.kind === 'schedule') {
    const problems = scheduleProblems(assignment.schedule);
    if (problems.length > 0) {
      throw new AppError('SCHEDULE_INVALID', {
        issues: problems.map((p) => ({
          path: `${path}.schedule.parts.${p.part}`,
          message: p.reason === 'empty' ? 'empty range' : `overlaps part ${p.other}`,
          key: p.reason === 'empty' ? 'screens.schedule.empty' : 'screens.schedule.overlap',
        })),
      });
    }
  }
  const now = ctx.now();
  const { playlistIds, fileIds } = assignedContent(assignment);
  const playlists =
    playlistIds.length === 0
      ? new Map()
      : await untilSettled(
          (fresh) => ctx.data.content.playlistFacts(playlistIds, now, fresh),
          (found) => playlistIds.every((id) => found.has(id)),
        );
  for (const id of playlistIds) {
    const p = playlists.get(id);
    if (!p || p.deleted || (p.ownerId !== null && p.ownerId !== ownerId)) {
      throw new AppError('PLAYLIST_NOT_FOUND', { details: { playlistId: id } });
    }
  }
  for (const id of fileIds) await checkFile(ctx, ownerId, id, now);
}

export type FleetChangeKind =
  | 'assign'
  | 'add-to-group'
  | 'remove-from-group'
  | 'set-time-zone'
  | 'unpair'
  | 'group-created'
  | 'group-changed'
  | 'group-deleted'
  | 'group-order'
  | 'takeover-started'
  | 'takeover-ended';

/** One event for one change, however many screens it touches (a change's own id: announced again, sent once). */
export async function announceFleetChange(
  ctx: ServiceContext,
  change: {
    changeId?: string;
    kind: FleetChangeKind;
    ownerId: string;
    screenIds: string[];
    groupId?: string;
    takeoverId?: string;
    content?: { playlistIds: string[]; fileIds: string[] };
  },
): Promise<string> {
  const changeId = change.changeId ?? randomUUID();
  await ctx.outbox.add(
    'screens.fleet.changed.v1',
    {
      changeId,
      ownerId: change.ownerId,
      changedAt: new Date(ctx.now()).toISOString(),
      kind: change.kind,
      screenIds: change.screenIds,
      ...(change.groupId ? { groupId: change.groupId } : {}),
      ...(change.takeoverId ? { takeoverId: change.takeoverId } : {}),
      content: change.content ?? { playlistIds: [], fileIds: [] },
    },
    change.changeId ? { id: change.changeId } : {},
  );
  return changeId;
}

export const contentOfTakeover = (content: TakeoverContent) =>
  content.kind === 'file' ? { playlistIds: [], fileIds: [content.fileId] } : { playlistIds: [], fileIds: [] };

/** The owner's groups in precedence order: the fleet's order first, then any it does not name, oldest first. */
export function orderGroups(groups: GroupDoc[], order: string[]): GroupDoc[] {
  const rank = new Map(order.map((id, i) => [id, i]));
  return [...groups].sort((a, b) => {
    const ra = rank.get(a._id) ?? Number.MAX_SAFE_INTEGER;
    const rb = rank.get(b._id) ?? Number.MAX_SAFE_INTEGER;
    return ra - rb || a.createdAt.getTime() - b.createdAt.getTime() || a._id.localeCompare(b._id);
  });
}

/** Whether a takeover concerns a screen: all the owner's screens, or a screen in one of its groups now. */
export function concerns(t: Pick<RunningTakeover, 'target'>, screen: Pick<ScreenRecord, 'groupIds'>): boolean {
  if (t.target.kind === 'all') return true;
  const mine = new Set(screen.groupIds ?? []);
  return t.target.groupIds.some((g) => mine.has(g));
}

/** Not ended and not past its end at `now`. */
export const stillRunning = (t: Pick<RunningTakeover, 'endsAt'>, now: number) =>
  t.endsAt === null || t.endsAt.getTime() > now;

export const takeoverWindow = (t: RunningTakeover): TakeoverWindow => ({
  id: t.id,
  show: t.content.kind === 'file' ? { kind: 'file', fileId: t.content.fileId } : { ...t.content },
  startsAt: t.startsAt.getTime(),
  endsAt: t.endsAt ? t.endsAt.getTime() : null,
});

/**
 * Everything a screen resolves with: its own assignment, its groups' in the owner's order, the takeovers that
 * concern it and are still running (their ends are in the data, so an offline display ends them by itself).
 */
export function inputsOf(
  screen: Pick<ScreenRecord, 'timeZone' | 'assignment' | 'groupIds'>,
  fleet: FleetDoc,
  groupsById: ReadonlyMap<string, GroupDoc>,
  now: number,
): ResolutionInputs {
  const mine = (screen.groupIds ?? []).flatMap((id) => {
    const g = groupsById.get(id);
    return g ? [g] : [];
  });
  return {
    timeZone: screen.timeZone,
    assignment: screen.assignment,
    groups: orderGroups(mine, fleet.order).map((g) => ({ id: g._id, assignment: g.assignment })),
    takeovers: fleet.running.filter((t) => stillRunning(t, now) && concerns(t, screen)).map(takeoverWindow),
  };
}
