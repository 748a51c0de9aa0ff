import {
  type DeviceIdentity,
  expectedOf,
  type HeartbeatRequest,
  isOpenAt,
  mismatchSince,
  type ResolutionInputs,
  resolveScreen,
  type ShownReport,
} from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import type { GroupDoc, ScreenRecord, ScreenStatus } from '../data';
import { mayReportShown, reportedTimeSane } from '../domain';
import { screenOfDevice } from './device-screen';
import { noteContact } from './display-contact';
import { concerns, inputsOf } from '../domain';
import { groupsOfScreen, reportIsRight, settingsOf } from '../domain';
import { playlistFileSets } from './screen-health';

/** What a report is judged with: the screen's record, its resolver inputs and its groups in order. */
interface ReportFacts {
  screen: ScreenRecord;
  inputs: ResolutionInputs;
  groups: GroupDoc[];
}

/**
 * The screen's record, fleet document and groups from the device view (current on every instance, no
 * database read), or the fleet document and groups read afresh (a report about to be refused).
 */
async function reportFacts(
  ctx: ServiceContext,
  device: DeviceIdentity,
  now: number,
  fresh: boolean,
): Promise<ReportFacts> {
  const screen = await screenOfDevice(ctx, device);
  const [fleet, groups] = fresh
    ? await Promise.all([ctx.data.fleet.fleets.get(screen.ownerId), ctx.data.fleet.groups.byIds(screen.groupIds ?? [])])
    : await Promise.all([ctx.data.view.fleet(screen.ownerId), ctx.data.view.groups(screen.groupIds ?? [])]);
  const groupsById = new Map(groups.map((g) => [g._id, g]));
  return {
    screen,
    inputs: inputsOf(screen, fleet, groupsById, now),
    groups: groupsOfScreen(screen, groupsById, fleet.order),
  };
}

/**
 * Whether what the display says it shows can be its screen's: a page of a file domain/file-use `mayReportShown`
 * allows (its owner owns it, deleted or not, or held a licence for it at any time); a message of a takeover of its owner that concerns it (running, or one that
 * covered it: a display may still show a message that just ended). Not "what it is given now": a display stuck on
 * what it was given before (a stale manifest, a file deleted since, a licence ended) is exactly the "wrong content"
 * the owner must see, so its report is stored and judged wrong, not refused (which would turn it offline). Another
 * member's file the owner never licensed is refused.
 */
async function showsAllowed(
  ctx: ServiceContext,
  facts: ReportFacts,
  shows: ShownReport,
  now: number,
  fresh: boolean,
): Promise<boolean> {
  const { screen, inputs } = facts;
  if (shows.kind === 'blank') return true;
  if (shows.kind === 'message') {
    // a typed message or a disaster alert: the takeovers without a file
    const noFile = (kind: string) => kind === 'message' || kind === 'alert';
    if (inputs.takeovers.some((t) => t.id === shows.takeoverId && noFile(t.show.kind))) return true;
    const takeover = await ctx.data.fleet.takeovers.get(shows.takeoverId);
    return (
      takeover !== null &&
      takeover.ownerId === screen.ownerId &&
      noFile(takeover.content.kind) &&
      (takeover.screenIds.includes(screen._id) || concerns(takeover, screen))
    );
  }
  const { fileId } = shows;
  const file = (await ctx.data.content.files([fileId], now, fresh)).get(fileId);
  const periods =
    file && file.ownerId !== screen.ownerId
      ? ((await ctx.data.content.licences(screen.ownerId, [fileId], now, fresh)).get(fileId) ?? [])
      : [];
  return mayReportShown(file, screen.ownerId, periods, now);
}

/**
 * The display is on: when, what it shows, whether it says it is closed, its version and size (only its own screen,
 * by its token); the first heartbeat after a long silence records the offline gap. A report of content the screen
 * may not show is refused (REPORTED_CONTENT_NOT_ALLOWED) and stores nothing; it is judged again on fresh reads
 * before it is refused (the content read models are current from events; a fresh read is the backstop).
 * The status also keeps since when the display shows something other than what it should (the resolver's answer
 * now; null while the screen's hours say closed) and the last image that failed.
 */
export async function recordHeartbeat(
  ctx: ServiceContext,
  device: DeviceIdentity,
  input: HeartbeatRequest,
): Promise<void> {
  const now = ctx.clock.ms();
  const { shows, sentAt } = input;
  // before anything is read or stored: a time no display's clock can honestly say
  const insane = [
    ...(shows && !reportedTimeSane(shows.shownAt, now) ? ['shows.shownAt'] : []),
    ...(sentAt !== undefined && !reportedTimeSane(sentAt, now) ? ['sentAt'] : []),
  ];
  if (insane.length > 0) {
    throw new AppError('REPORTED_TIME_INVALID', {
      issues: insane.map((path) => ({ path, message: 'outside the sane window' })),
    });
  }
  let facts = await reportFacts(ctx, device, now, false);
  if (shows && !(await showsAllowed(ctx, facts, shows, now, false))) {
    facts = await reportFacts(ctx, device, now, true);
    if (!(await showsAllowed(ctx, facts, shows, now, true))) throw new AppError('REPORTED_CONTENT_NOT_ALLOWED');
  }
  const { screen } = facts;
  const previous = await ctx.data.statuses.get(screen._id);
  // before the new status replaces the old one (its lastSeenAt is the previous contact)
  await noteContact(ctx, screen, now);
  const shownSeenAt = shownSeenAtOf(shows, previous, now);
  await ctx.data.statuses.record({
    screenId: screen._id,
    ownerId: screen.ownerId,
    lastSeenAt: new Date(now),
    nowPlaying: input.nowPlaying,
    appVersion: input.appVersion,
    screenSize: input.screenSize,
    shows: shows ?? null,
    closedReported: input.closed === true,
    wrongSince: await wrongSinceOf(ctx, facts, shows, previous, now),
    brokenSince: brokenSinceOf(shows, previous, now),
    shownSeenAt,
    lastImageError: imageErrorOf(shows, previous, shownSeenAt),
    // how far ahead its clock is (the trip makes it look a little behind): bounds how far ahead its plays may end
    clockAheadMs: sentAt !== undefined ? Date.parse(sentAt) - now : null,
  });
}

/** Since when the display shows the wrong thing (null: right, closed by the server's hours, or it reports nothing). */
async function wrongSinceOf(
  ctx: ServiceContext,
  facts: ReportFacts,
  shows: ShownReport | undefined,
  previous: ScreenStatus | null,
  now: number,
): Promise<number | null> {
  if (!shows) return null;
  const { screen, inputs, groups } = facts;
  if (!isOpenAt(settingsOf(screen, groups).openingHours, screen.timeZone, now)) return null;
  const expected = expectedOf(resolveScreen(inputs, now));
  const playlistFiles =
    expected.kind === 'playlist' ? await playlistFileSets(ctx, [expected.playlistId], now) : new Map();
  const before = previous && previous.ownerId === screen.ownerId ? (previous.wrongSince ?? null) : null;
  return mismatchSince(before, reportIsRight(shows, expected, playlistFiles), now);
}

/** Since when images keep failing: the first failed report of a run, kept while pages keep failing. */
function brokenSinceOf(shows: ShownReport | undefined, previous: ScreenStatus | null, now: number): number | null {
  if (shows?.kind !== 'page') return null;
  // a page still loading keeps the run; one that drew ends it
  if (shows.error === null) return shows.loaded ? null : (previous?.brokenSince ?? null);
  // the server's clock: a display whose clock is behind must not make its run look older
  return previous?.brokenSince ?? now;
}

/**
 * When the server first heard of the picture now shown: kept while the display reports the same picture (same
 * shownAt), the report's arrival otherwise. Reports go when the picture changes, so arrival is its appearance to
 * within a report's trip, on the server's clock whatever the display's says.
 */
function shownSeenAtOf(shows: ShownReport | undefined, previous: ScreenStatus | null, now: number): number | null {
  if (!shows) return null;
  const before = previous?.shows ?? null;
  // the same picture: same kind and shownAt, and for a page the same file and page (its image may have drawn since)
  const samePicture =
    before !== null &&
    before.kind === shows.kind &&
    before.shownAt === shows.shownAt &&
    (before.kind !== 'page' || shows.kind !== 'page' || (before.fileId === shows.fileId && before.page === shows.page));
  return samePicture ? (previous?.shownSeenAt ?? now) : now;
}

/**
 * The image that failed in this report, else the last. at: when the server first heard of its page (shownSeenAt, so
 * a repeated report keeps it), on the server's clock: the display's shownAt is never shown back as a date.
 */
function imageErrorOf(
  shows: ShownReport | undefined,
  previous: ScreenStatus | null,
  shownSeenAt: number | null,
): ScreenStatus['lastImageError'] {
  if (shows?.kind !== 'page' || shows.error === null) return previous?.lastImageError ?? null;
  const at = new Date(shownSeenAt ?? Date.parse(shows.shownAt)).toISOString();
  return { error: shows.error, fileId: shows.fileId, page: shows.page, at };
}
