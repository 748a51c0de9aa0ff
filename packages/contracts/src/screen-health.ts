// Fleet health rules, shared by the display (opening hours on its own clock, offline too), the screens
// service (states, incidents, alert grouping) and the owner's pages. Pure: every instant is passed in.
import {
  ALERT_AFTER_MINUTES_DEFAULT,
  ALERT_GROUP_WINDOW_SECONDS,
  type ExpectedShow,
  HEALTH_FROZEN_SLACK_SECONDS,
  HEALTH_WRONG_AFTER_SECONDS,
  type ImageError,
  type OpeningHours,
  type ScreenHealthState,
  type ShownReport,
} from './api/screen-health';
import { SCREEN_OFFLINE_AFTER_SECONDS } from './api/screens';
import { type Resolution, spanCovers, wallClock } from './screen-schedule';

/** Whether a screen with these hours is open at `instant` in its zone (null = always open; [] = never). */
export function isOpenAt(hours: OpeningHours, timeZone: string, instant: number): boolean {
  if (hours === null) return true;
  const { day, minute } = wallClock(instant, timeZone);
  return hours.some((span) => spanCovers(span, day, minute));
}

/** The hours that apply to a screen: its own, else the first of its groups (member's order) that has some. */
export function openingHoursOf(own: OpeningHours, groups: ReadonlyArray<{ openingHours: OpeningHours }>): OpeningHours {
  if (own !== null) return own;
  return groups.find((g) => g.openingHours !== null)?.openingHours ?? null;
}

/** A screen's alert threshold: the smallest of its groups', or the default outside any group. */
export function alertAfterOf(groups: ReadonlyArray<{ alertAfterMinutes: number }>): number {
  return groups.length === 0 ? ALERT_AFTER_MINUTES_DEFAULT : Math.min(...groups.map((g) => g.alertAfterMinutes));
}

/** What a resolution asks the screen to show, as a report can be compared with it. */
export function expectedOf(resolution: Resolution): ExpectedShow {
  const { playing, because } = resolution;
  // an alert is a takeover without a file too: the display reports it as the takeover's message
  if (playing.kind === 'message' || playing.kind === 'alert') {
    return { kind: 'message', takeoverId: because.rule === 'takeover' ? because.takeoverId : '' };
  }
  if (playing.kind === 'file') return { kind: 'file', fileId: playing.fileId };
  if (playing.kind === 'playlist') return { kind: 'playlist', playlistId: playing.playlistId };
  return { kind: 'none' };
}

/**
 * Whether what a display shows is what it should: a page of the file (or of any file of the playlist, whose files
 * the caller passes), the takeover's message, or nothing when nothing should play. A playlist whose files are
 * unknown (`playlistFileIds` undefined) accepts any page: the server cannot tell, so it does not accuse.
 */
export function showsExpected(
  shows: ShownReport,
  expected: ExpectedShow,
  playlistFileIds?: ReadonlySet<string>,
): boolean {
  switch (expected.kind) {
    case 'none':
      return shows.kind === 'blank';
    case 'message':
      return shows.kind === 'message' && shows.takeoverId === expected.takeoverId;
    case 'file':
      return shows.kind === 'page' && shows.fileId === expected.fileId;
    case 'playlist':
      // an empty playlist (or one of files all gone) shows nothing
      if (playlistFileIds && playlistFileIds.size === 0) return shows.kind === 'blank';
      return shows.kind === 'page' && (playlistFileIds === undefined || playlistFileIds.has(shows.fileId));
  }
}

/**
 * Since when a screen shows the wrong thing, given what it showed before: unchanged while it stays wrong, the
 * report's time when it turns wrong, null when it is right (or closed, or reports nothing).
 */
export function mismatchSince(previous: number | null, right: boolean | null, reportedAt: number): number | null {
  if (right !== false) return null;
  return previous ?? reportedAt;
}

export interface HealthInputs {
  /** the last heartbeat (ms), null = never seen */
  lastSeenAt: number | null;
  /** the hours that apply (openingHoursOf) and the screen's zone */
  openingHours: OpeningHours;
  timeZone: string;
  /** what the display last reported (null: an older display, or nothing yet) */
  shows: ShownReport | null;
  /** since when what it shows is not what it should (mismatchSince), null = right */
  wrongSince: number | null;
  /**
   * since when its images keep failing, on the server's clock (when it first heard of a failure of the run: a
   * playlist whose every page fails starts a new page each time, so the current page's shownAt alone would never
   * reach a threshold); absent = when the server first heard of the page (shownSeenAt), else its shownAt no later
   * than the last heartbeat
   */
  brokenSince?: number | null;
  /**
   * when the server first heard of the picture now shown (ms): frozen is judged on the server's clock, so a display
   * whose clock is behind does not look frozen; absent = the display's shownAt
   */
  shownSeenAt?: number | null;
}

export type HealthReason =
  | { state: 'ok' }
  | { state: 'offline'; lastSeenAt: number | null }
  | { state: 'closed' }
  | { state: 'broken'; error: ImageError; fileId: string; page: number }
  | { state: 'frozen'; shownSeconds: number; holdSeconds: number }
  /** a video's time stopped advancing at `second` (the display tells it: VIDEO_FROZEN_SECONDS) */
  | { state: 'frozen'; fileId: string; second: number }
  | { state: 'wrong'; wrongSeconds: number };

export interface HealthVerdict {
  state: ScreenHealthState;
  /** when the state began (ms), null for ok or never seen */
  since: number | null;
  reason: HealthReason;
}

/**
 * A screen's state at `now`: closed (outside its hours: quiet, so a closed screen is never offline, broken, frozen or
 * wrong), offline (two heartbeats missed), broken (its image or video failed), frozen (its picture outstayed its page
 * by more than the slack, or its video stopped advancing), wrong (for longer than a minute), else ok. The server judges closed by the hours it
 * holds, not by what the display says, so a display cannot silence its own alerts by claiming it is closed.
 */
export function healthOf(inputs: HealthInputs, now: number): HealthVerdict {
  const { lastSeenAt, shows } = inputs;
  // closed first: a screen switched off at the wall for the night is closed, not offline
  if (!isOpenAt(inputs.openingHours, inputs.timeZone, now)) {
    return { state: 'closed', since: null, reason: { state: 'closed' } };
  }
  if (lastSeenAt === null || now - lastSeenAt > SCREEN_OFFLINE_AFTER_SECONDS * 1000) {
    return { state: 'offline', since: lastSeenAt, reason: { state: 'offline', lastSeenAt } };
  }
  if (shows?.kind === 'page') {
    const shownAt = Date.parse(shows.shownAt);
    if (shows.error !== null) {
      // the server's clock: a display's shownAt (1970, a clock behind) must not backdate the state past its threshold
      return {
        state: 'broken',
        since: inputs.brokenSince ?? inputs.shownSeenAt ?? Math.min(shownAt, lastSeenAt),
        reason: { state: 'broken', error: shows.error, fileId: shows.fileId, page: shows.page },
      };
    }
    const seenAt = inputs.shownSeenAt ?? shownAt;
    if (shows.video?.frozen) {
      // the display saw its video stop: frozen from when the server heard of it (as broken, the server's clock)
      return {
        state: 'frozen',
        since: inputs.shownSeenAt ?? Math.min(shownAt, lastSeenAt),
        reason: { state: 'frozen', fileId: shows.fileId, second: shows.video.second },
      };
    }
    const frozenAt = seenAt + (shows.holdSeconds + HEALTH_FROZEN_SLACK_SECONDS) * 1000;
    if (now > frozenAt) {
      return {
        state: 'frozen',
        since: frozenAt,
        reason: { state: 'frozen', shownSeconds: Math.floor((now - seenAt) / 1000), holdSeconds: shows.holdSeconds },
      };
    }
  }
  if (inputs.wrongSince !== null && now - inputs.wrongSince > HEALTH_WRONG_AFTER_SECONDS * 1000) {
    return {
      state: 'wrong',
      since: inputs.wrongSince,
      reason: { state: 'wrong', wrongSeconds: Math.floor((now - inputs.wrongSince) / 1000) },
    };
  }
  return { state: 'ok', since: null, reason: { state: 'ok' } };
}

/** Whether the screen was open at every 5-minute step from `from` to `to` (and at both ends). */
export function openThroughout(hours: OpeningHours, timeZone: string, from: number, to: number): boolean {
  if (hours === null) return true;
  for (let t = from; t < to; t += 300_000) if (!isOpenAt(hours, timeZone, t)) return false;
  return isOpenAt(hours, timeZone, to);
}

/**
 * Whether a bad state has lasted past the screen's threshold while the screen was open (then it is an incident):
 * a screen left off overnight opens an incident only when it is still off a threshold after opening.
 */
export function pastThreshold(
  verdict: HealthVerdict,
  alertAfterMinutes: number,
  now: number,
  hours: OpeningHours,
  timeZone: string,
): boolean {
  if (verdict.state === 'ok' || verdict.state === 'closed') return false;
  // never seen: the screen was paired but never came up; counted from nothing we know, so no incident
  if (verdict.since === null) return false;
  const threshold = alertAfterMinutes * 60_000;
  return now - verdict.since >= threshold && openThroughout(hours, timeZone, now - threshold, now);
}

/** An incident or a recovery that no e-mail has told yet. */
export interface PendingAlert {
  ownerId: string;
  /** when it became due to tell (the incident's opening, or its end) */
  at: number;
}

/**
 * Which owners to e-mail now: an owner's unsent alerts wait until the oldest is ALERT_GROUP_WINDOW_SECONDS old, so
 * screens that fall together (a site losing its network: their thresholds pass within a few seconds of each other)
 * go in one e-mail; then every unsent alert of that owner goes in it. Returns the owners, each with its alerts.
 */
export function dueAlerts<T extends PendingAlert>(pending: ReadonlyArray<T>, now: number): Map<string, T[]> {
  const byOwner = new Map<string, T[]>();
  for (const p of pending) {
    const list = byOwner.get(p.ownerId);
    if (list) list.push(p);
    else byOwner.set(p.ownerId, [p]);
  }
  const due = new Map<string, T[]>();
  for (const [ownerId, list] of byOwner) {
    const oldest = Math.min(...list.map((p) => p.at));
    if (now - oldest >= ALERT_GROUP_WINDOW_SECONDS * 1000) due.set(ownerId, list);
  }
  return due;
}
