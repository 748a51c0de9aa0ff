// What the display tells the server it shows: a page (its file, its number, when it appeared, how long it
// is to stay, whether its image drew and why not), a takeover's message, or nothing (blank: nothing to play, or
// closed). A change is told by a heartbeat at once, or at the end of the SHOWN_REPORT_MIN_SECONDS window since the
// last report (the last change wins); every regular heartbeat carries what is shown too, and is what tells the
// routine change of one drawn page to the next of the same file.
import {
  ErrorCode,
  type HeartbeatRequest,
  type ImageError,
  SHOWN_REPORT_MIN_SECONDS,
  type ShownReport,
} from '@pagecast/contracts';
import { HttpError } from '@pagecast/ui';

/** What is on the display now, as the page knows it. */
export interface PictureNow {
  /** outside the opening hours: black */
  closed: boolean;
  /** a message takeover on screen (its id) */
  messageOf: string | null;
  /** the page on screen: shownAt = this showing's start; image = how its image went (null: still loading) */
  page: {
    fileId: string;
    /** 1 = the first page */
    page: number;
    shownAt: number;
    holdSeconds: number;
    image: { loaded: boolean; error: ImageError | null } | null;
    /**
     * a video's page: when its time stopped advancing, the second it stopped at (told frozen); the second it plays at
     * is stamped when a report is sent (withVideoSecond), so its advance alone is no change to tell
     */
    video?: { frozenAt?: number } | null;
  } | null;
  /** when the message or the blank picture appeared */
  since: number;
}

/** The report of what is on the display. */
export function shownReportOf(now: PictureNow): ShownReport {
  const at = (ms: number) => new Date(ms).toISOString();
  if (now.closed) return { kind: 'blank', shownAt: at(now.since) };
  if (now.messageOf) return { kind: 'message', takeoverId: now.messageOf, shownAt: at(now.since) };
  if (now.page) {
    const { image } = now.page;
    return {
      kind: 'page',
      fileId: now.page.fileId,
      page: now.page.page,
      shownAt: at(now.page.shownAt),
      holdSeconds: now.page.holdSeconds,
      loaded: image?.loaded ?? false,
      error: image?.error ?? null,
      ...(now.page.video
        ? {
            video:
              now.page.video.frozenAt !== undefined
                ? { second: secondOf(now.page.video.frozenAt), frozen: true }
                : { second: 0 },
          }
        : {}),
    };
  }
  return { kind: 'blank', shownAt: at(now.since) };
}

/** A video's second as reported: to a tenth, never negative. */
const secondOf = (second: number) => Math.round(Math.max(0, second) * 10) / 10;

/** The report as sent: a playing video's page names the second it is at now (a frozen one keeps where it stopped). */
export function withVideoSecond(shows: ShownReport, second: number | null): ShownReport {
  if (shows.kind !== 'page' || !shows.video || shows.video.frozen || second === null) return shows;
  return { ...shows, video: { second: secondOf(second) } };
}

/** A change worth telling at once: a page once its image has drawn or failed (not while it loads), else any. */
export const settled = (shows: ShownReport) => shows.kind !== 'page' || shows.loaded || shows.error !== null;

/** Why an image the <img> could not draw failed, from a second look at its address (null = no answer at all). */
export function imageErrorOf(status: number | null): ImageError {
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  // the bytes came but did not draw
  if (status !== null && status >= 200 && status < 300) return 'decode-failed';
  return 'load-failed';
}

export interface ReporterClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}
const realClock: ReporterClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
};

/**
 * A change the next regular heartbeat tells: the next page of the file last told, both drawn. What the owner and the
 * health rules need from it (that pages move; the file, which says right or wrong) the regular beat gives within its
 * period, well inside the frozen rule's slack; told at once, a file of 5 s pages made a heartbeat every 5 s, three
 * times the display's whole regular traffic. A page that failed, a video that froze, another file, a message, blank
 * (and anything after one of them) is still told at once.
 */
export function routineChange(told: ShownReport | null, next: ShownReport): boolean {
  const drawn = (s: ShownReport) => s.kind === 'page' && s.loaded && s.error === null && s.video?.frozen !== true;
  return (
    told !== null &&
    told.kind === 'page' &&
    next.kind === 'page' &&
    told.fileId === next.fileId &&
    drawn(told) &&
    drawn(next)
  );
}

/**
 * Tells changes of the picture through `send`, at most once per window (SHOWN_REPORT_MIN_SECONDS since the last
 * report, a regular heartbeat included): the first change after a quiet window goes at once, later ones wait for the
 * window's end and only the last is told. A change back to what was last told is not told again, and a routine one
 * (routineChange) is left to the next regular heartbeat.
 */
export function createShownReporter(send: (shows: ShownReport) => void, clock: ReporterClock = realClock) {
  const minMs = SHOWN_REPORT_MIN_SECONDS * 1000;
  let latest: ShownReport | null = null;
  let latestKey = '';
  let toldShows: ShownReport | null = null;
  let toldKey = '';
  let toldAt = Number.NEGATIVE_INFINITY;
  let timer: unknown = null;
  const flush = () => {
    timer = null;
    if (latest === null || latestKey === toldKey) return;
    toldShows = latest;
    toldKey = latestKey;
    toldAt = clock.now();
    send(latest);
  };
  return {
    /** The picture changed to `shows`. */
    change(shows: ShownReport) {
      const key = JSON.stringify(shows);
      if (key === latestKey) return;
      latest = shows;
      latestKey = key;
      if (timer !== null) return; // the window's end tells the last change
      if (routineChange(toldShows, shows)) return; // the next regular heartbeat carries it
      const wait = toldAt + minMs - clock.now();
      if (wait <= 0) flush();
      else timer = clock.setTimeout(flush, wait);
    },
    /** A regular heartbeat carried `shows`: it counts as a report (the window starts again). */
    told(shows: ShownReport) {
      toldShows = shows;
      toldKey = JSON.stringify(shows);
      toldAt = clock.now();
    },
    stop() {
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
    },
  };
}
export type ShownReporter = ReturnType<typeof createShownReporter>;

/**
 * A report the server refused: a page of a file this screen may not show, a takeover not its own (403), or a time
 * outside the sane window (400: this display's clock is far off).
 */
export const isReportRefused = (err: unknown) =>
  err instanceof HttpError &&
  ((err.status === 403 && err.code === ErrorCode.REPORTED_CONTENT_NOT_ALLOWED) ||
    (err.status === 400 && err.code === ErrorCode.REPORTED_TIME_INVALID));

/**
 * Sends a heartbeat; when the server refuses what it reports, sends it again without the report (and its clock's
 * time), so the screen stays online (the refusal changed nothing on the server). Returns whether the report was
 * refused; other errors (offline, 401) are thrown to the caller.
 */
export async function beatWithReport(
  send: (body: HeartbeatRequest) => Promise<void>,
  body: HeartbeatRequest,
): Promise<{ reportRefused: boolean }> {
  try {
    await send(body);
    return { reportRefused: false };
  } catch (err) {
    if (!isReportRefused(err) || (body.shows === undefined && body.sentAt === undefined)) throw err;
    // without the report and the clock's time: the beat alone keeps the screen online
    const { shows: _refused, sentAt: _clock, ...rest } = body;
    await send(rest);
    return { reportRefused: true };
  }
}
