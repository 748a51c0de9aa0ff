// What the fleet use cases share: every playlist and file a member names is checked against the read
// models, and each change is announced once. (One owner's changes one at a time: fleet-lease.ts; the precedence
// rules: domain/fleet.ts.)
import { randomUUID } from 'node:crypto';
import { assignedContent, type ScreenAssignment, scheduleProblems } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { mayAssign } from '../domain';

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
 * Whether the member may still show a file now (mayAssign), read once without waiting: a disaster alert's rule file
 * deleted (or its licence ended) since it was chosen makes the alert fall back to its texts. Read fresh, not from the
 * cache (a report is rare, and a cached "not heard of" from just before the file arrived would hide it).
 */
export async function fileUsable(ctx: ServiceContext, ownerId: string, fileId: string, now: number): Promise<boolean> {
  const file = (await ctx.data.content.files([fileId], now, true)).get(fileId);
  const periods =
    file && file.deletedAt === null && file.ownerId !== ownerId
      ? ((await ctx.data.content.licences(ownerId, [fileId], now, true)).get(fileId) ?? [])
      : [];
  return mayAssign(file, ownerId, periods, now);
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
  const now = ctx.clock.ms();
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
      changedAt: new Date(ctx.clock.ms()).toISOString(),
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
