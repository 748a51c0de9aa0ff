// The display's reports: what it says it shows, when it says it (coalesced, the last change wins), a
// refused report that does not stop the heartbeats, and the turned stage's sizes and the opening hours' clock.
import {
  HeartbeatRequest,
  isOpenAt,
  type OpeningHours,
  SHOWN_REPORT_MIN_SECONDS,
  type ShownReport,
  ShownReport as ShownReportSchema,
} from '@pagecast/contracts';
import { HttpError } from '@pagecast/ui';
import { describe, expect, it } from 'vitest';
import { nextOpenCheck, OPEN_RECHECK_MS } from '../src/features/display/model/opening-hours';
import {
  beatWithReport,
  createShownReporter,
  imageErrorOf,
  type PictureNow,
  type ReporterClock,
  routineChange,
  settled,
  shownReportOf,
  withVideoSecond,
} from '../src/features/display/model/shown-report';
import { stageLayout } from '../src/features/display/model/stage';

const T0 = Date.parse('2026-11-27T01:00:00.000Z');
const FILE = '6a1f00000000000000000001';
const TAKEOVER = '6a1f00000000000000000002';

const picture = (over: Partial<PictureNow> = {}): PictureNow => ({
  closed: false,
  messageOf: null,
  page: null,
  since: T0,
  ...over,
});
const pageAt = (shownAt: number, image: { loaded: boolean; error: 'forbidden' | null } | null = null) => ({
  fileId: FILE,
  page: 2,
  shownAt,
  holdSeconds: 8,
  image,
});

describe('what the display reports it shows', () => {
  it('a page with its number, when it appeared, how long it is to stay and how its image went', () => {
    const loading = shownReportOf(picture({ page: pageAt(T0 + 500) }));
    expect(loading).toEqual({
      kind: 'page',
      fileId: FILE,
      page: 2,
      shownAt: '2026-11-27T01:00:00.500Z',
      holdSeconds: 8,
      loaded: false,
      error: null,
    });
    expect(settled(loading)).toBe(false);
    const drawn = shownReportOf(picture({ page: pageAt(T0 + 500, { loaded: true, error: null }) }));
    expect(drawn).toMatchObject({ loaded: true, error: null });
    expect(settled(drawn)).toBe(true);
    const failed = shownReportOf(picture({ page: pageAt(T0 + 500, { loaded: false, error: 'forbidden' }) }));
    expect(failed).toMatchObject({ loaded: false, error: 'forbidden' });
    expect(settled(failed)).toBe(true);
    for (const r of [loading, drawn, failed]) expect(ShownReportSchema.safeParse(r).success).toBe(true);
  });

  it("a video's page names its second when sent (its advance alone is no change), and where it stopped when frozen", () => {
    const playing = shownReportOf(
      picture({ page: { ...pageAt(T0), image: { loaded: true, error: null }, video: { frozenAt: undefined } } }),
    );
    const later = shownReportOf(picture({ page: { ...pageAt(T0), image: { loaded: true, error: null }, video: {} } }));
    // what the reporter compares stays the same while the video plays on
    expect(JSON.stringify(playing)).toBe(JSON.stringify(later));
    expect(withVideoSecond(playing, 7.345)).toMatchObject({ video: { second: 7.3 } });
    expect(withVideoSecond(playing, null)).toBe(playing);
    const frozen = shownReportOf(
      picture({ page: { ...pageAt(T0), image: { loaded: true, error: null }, video: { frozenAt: 4.26 } } }),
    );
    expect(frozen).toMatchObject({ video: { second: 4.3, frozen: true } });
    // sent while frozen: where it stopped, not a later time
    expect(withVideoSecond(frozen, 9)).toBe(frozen);
    // a page (not a video) names no second
    const doc = shownReportOf(picture({ page: pageAt(T0, { loaded: true, error: null }) }));
    expect(withVideoSecond(doc, 3)).toBe(doc);
    for (const r of [withVideoSecond(playing, 7.345), frozen])
      expect(ShownReportSchema.safeParse(r).success).toBe(true);
  });

  it('a message by its takeover, nothing as blank, and closed as blank whatever would play', () => {
    expect(shownReportOf(picture({ messageOf: TAKEOVER, since: T0 + 1000 }))).toEqual({
      kind: 'message',
      takeoverId: TAKEOVER,
      shownAt: '2026-11-27T01:00:01.000Z',
    });
    expect(shownReportOf(picture())).toEqual({ kind: 'blank', shownAt: '2026-11-27T01:00:00.000Z' });
    const closed = shownReportOf(
      picture({ closed: true, messageOf: TAKEOVER, page: pageAt(T0, { loaded: true, error: null }), since: T0 + 7 }),
    );
    expect(closed).toEqual({ kind: 'blank', shownAt: '2026-11-27T01:00:00.007Z' });
    expect(settled(closed)).toBe(true);
  });

  it('tells why an image failed from a second look at its address', () => {
    expect(imageErrorOf(403)).toBe('forbidden');
    expect(imageErrorOf(404)).toBe('not-found');
    expect(imageErrorOf(200)).toBe('decode-failed');
    expect(imageErrorOf(500)).toBe('load-failed');
    expect(imageErrorOf(null)).toBe('load-failed');
  });
});

/** A clock the test moves by hand, with its timers. */
function manualClock() {
  let now = T0;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let ids = 0;
  const clock: ReporterClock & { advance(ms: number): void; pending(): number } = {
    now: () => now,
    setTimeout(fn, ms) {
      ids += 1;
      timers.push({ at: now + ms, fn, id: ids });
      return ids;
    },
    clearTimeout(id) {
      timers = timers.filter((t) => t.id !== id);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers = timers.filter((t) => t !== due);
        now = due.at;
        due.fn();
      }
      now = end;
    },
    pending: () => timers.length,
  };
  return clock;
}
const blankAt = (ms: number): ShownReport => ({ kind: 'blank', shownAt: new Date(ms).toISOString() });
const pageShown = (ms: number): ShownReport => ({
  kind: 'page',
  fileId: FILE,
  page: 1,
  shownAt: new Date(ms).toISOString(),
  holdSeconds: 1,
  loaded: true,
  error: null,
});

describe('when the display reports', () => {
  const window = SHOWN_REPORT_MIN_SECONDS * 1000;

  it('tells the first change at once, then at most once per window with the last change', () => {
    const clock = manualClock();
    const sent: { at: number; shows: ShownReport }[] = [];
    const reporter = createShownReporter((shows) => sent.push({ at: clock.now(), shows }), clock);
    reporter.change(pageShown(T0));
    expect(sent).toEqual([{ at: T0, shows: pageShown(T0) }]);
    // three more pages within the window: only the last is told, at the window's end
    clock.advance(500);
    reporter.change(pageShown(T0 + 500));
    clock.advance(500);
    reporter.change(pageShown(T0 + 1000));
    clock.advance(500);
    reporter.change(blankAt(T0 + 1500));
    expect(sent).toHaveLength(1);
    clock.advance(window);
    expect(sent).toEqual([
      { at: T0, shows: pageShown(T0) },
      { at: T0 + window, shows: blankAt(T0 + 1500) },
    ]);
    // the same picture again is not told again; a change after a quiet window goes at once
    reporter.change(blankAt(T0 + 1500));
    clock.advance(10 * window);
    expect(sent).toHaveLength(2);
    const quiet = clock.now();
    reporter.change(pageShown(quiet));
    expect(sent.at(-1)).toEqual({ at: quiet, shows: pageShown(quiet) });
  });

  it('a change back to what was last told within the window is not told again', () => {
    const clock = manualClock();
    const sent: ShownReport[] = [];
    const reporter = createShownReporter((shows) => sent.push(shows), clock);
    reporter.change(blankAt(T0));
    clock.advance(100);
    reporter.change(pageShown(T0 + 100));
    reporter.change(blankAt(T0));
    clock.advance(window);
    expect(sent).toEqual([blankAt(T0)]);
  });

  it('a regular heartbeat counts as a report: what it carried is not told again, and the window restarts', () => {
    const clock = manualClock();
    const sent: { at: number; shows: ShownReport }[] = [];
    const reporter = createShownReporter((shows) => sent.push({ at: clock.now(), shows }), clock);
    reporter.told(blankAt(T0));
    clock.advance(1000);
    reporter.change(pageShown(T0 + 1000));
    expect(sent).toHaveLength(0); // within the window of the heartbeat
    clock.advance(window);
    expect(sent).toEqual([{ at: T0 + window, shows: pageShown(T0 + 1000) }]);
    // a change carried by a regular heartbeat meanwhile is not sent twice
    clock.advance(500);
    reporter.change(blankAt(T0 + window + 500));
    reporter.told(blankAt(T0 + window + 500));
    clock.advance(window);
    expect(sent).toHaveLength(1);
  });

  it('leaves the next drawn page of the same file to the regular heartbeat, and tells anything else at once', () => {
    const clock = manualClock();
    const sent: { at: number; shows: ShownReport }[] = [];
    const reporter = createShownReporter((shows) => sent.push({ at: clock.now(), shows }), clock);
    const page = (n: number, at: number, over: Partial<ShownReport> = {}): ShownReport =>
      ({ ...pageShown(at), page: n, ...over }) as ShownReport;
    reporter.change(page(1, T0));
    expect(sent).toHaveLength(1);
    // pages 2 and 3 of the same file, drawn, 5 s apart: nothing sent, no timer left waiting
    clock.advance(5000);
    reporter.change(page(2, T0 + 5000));
    clock.advance(5000);
    reporter.change(page(3, T0 + 10_000));
    clock.advance(10 * window);
    expect(sent).toHaveLength(1);
    expect(clock.pending()).toBe(0);
    // the regular heartbeat carries page 3; the next flip is routine against it too
    reporter.told(page(3, T0 + 10_000));
    clock.advance(window);
    reporter.change(page(1, clock.now()));
    expect(sent).toHaveLength(1);
    // a page whose image failed is told at once (past the window), and so is the drawn page after it
    reporter.change(page(2, clock.now(), { error: 'forbidden' }));
    expect(sent.at(-1)?.shows).toMatchObject({ page: 2, error: 'forbidden' });
    clock.advance(window);
    reporter.change(page(3, clock.now()));
    expect(sent.at(-1)?.shows).toMatchObject({ page: 3, error: null });
    // another file is told at once
    clock.advance(window);
    reporter.change(page(1, clock.now(), { fileId: TAKEOVER }));
    expect(sent.at(-1)?.shows).toMatchObject({ fileId: TAKEOVER, page: 1 });
    expect(sent).toHaveLength(4);
  });

  it('judges a routine change only between drawn pages of one file', () => {
    const drawn = pageShown(T0) as Extract<ShownReport, { kind: 'page' }>;
    expect(routineChange(drawn, { ...drawn, page: 2 })).toBe(true);
    expect(routineChange(null, drawn)).toBe(false);
    expect(routineChange(blankAt(T0), drawn)).toBe(false);
    expect(routineChange(drawn, blankAt(T0))).toBe(false);
    expect(routineChange(drawn, { ...drawn, fileId: TAKEOVER })).toBe(false);
    expect(routineChange(drawn, { ...drawn, page: 2, loaded: false })).toBe(false);
    expect(routineChange({ ...drawn, error: 'forbidden', loaded: false }, { ...drawn, page: 2 })).toBe(false);
    expect(routineChange(drawn, { ...drawn, video: { second: 3, frozen: true } })).toBe(false);
    expect(routineChange({ ...drawn, video: { second: 0 } }, { ...drawn, video: { second: 0 } })).toBe(true);
  });

  it('stop() drops a change waiting for its window', () => {
    const clock = manualClock();
    const sent: ShownReport[] = [];
    const reporter = createShownReporter((shows) => sent.push(shows), clock);
    reporter.change(blankAt(T0));
    reporter.change(pageShown(T0));
    expect(clock.pending()).toBe(1);
    reporter.stop();
    clock.advance(window);
    expect(sent).toEqual([blankAt(T0)]);
  });
});

describe('a refused report', () => {
  const body: HeartbeatRequest = {
    appVersion: '1.0.0',
    screenSize: { width: 1920, height: 1080 },
    nowPlaying: { fileId: FILE, page: 0 },
    closed: false,
    shows: pageShown(T0),
  };
  const refusal = () =>
    new HttpError(
      403,
      'Forbidden',
      JSON.stringify({
        code: 'REPORTED_CONTENT_NOT_ALLOWED',
        message: 'このスクリーンに表示できないコンテンツの報告です',
      }),
    );

  it('does not stop the heartbeat: it is sent again without the report', async () => {
    const calls: HeartbeatRequest[] = [];
    const result = await beatWithReport(async (b) => {
      calls.push(b);
      if (b.shows) throw refusal();
    }, body);
    expect(result).toEqual({ reportRefused: true });
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual({ ...body, shows: undefined });
    expect('shows' in (calls[1] as object)).toBe(false);
    expect(HeartbeatRequest.safeParse(calls[1]).success).toBe(true);
  });

  it('a time refused as outside the sane window (its clock far off): sent again without the report or its clock', async () => {
    const calls: HeartbeatRequest[] = [];
    const timed = { ...body, sentAt: '1970-01-01T00:00:00.000Z' };
    const result = await beatWithReport(async (b) => {
      calls.push(b);
      if (b.sentAt) throw new HttpError(400, 'Bad Request', JSON.stringify({ code: 'REPORTED_TIME_INVALID' }));
    }, timed);
    expect(result).toEqual({ reportRefused: true });
    expect(calls).toHaveLength(2);
    expect('shows' in (calls[1] as object) || 'sentAt' in (calls[1] as object)).toBe(false);
    expect(HeartbeatRequest.safeParse(calls[1]).success).toBe(true);
  });

  it('other failures are the caller’s (offline, unpaired), and an accepted beat is sent once', async () => {
    const calls: HeartbeatRequest[] = [];
    await expect(
      beatWithReport(async (b) => {
        calls.push(b);
        throw new HttpError(401, 'Unauthorized', '{"code":"UNAUTHORIZED"}');
      }, body),
    ).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(1);
    expect(await beatWithReport(async (b) => void calls.push(b), body)).toEqual({ reportRefused: false });
    expect(calls).toHaveLength(2);
    // another 403 (not a refused report) is not retried
    await expect(
      beatWithReport(async () => {
        throw new HttpError(403, 'Forbidden', '{"code":"CROSS_SITE_REQUEST"}');
      }, body),
    ).rejects.toMatchObject({ status: 403 });
  });
});

describe('the turned stage', () => {
  const landscape = { width: 1920, height: 1080 };
  it('keeps the window for 0 and 180, takes its height as its width for 90 and 270', () => {
    expect(stageLayout(undefined, landscape)).toMatchObject({ rotation: 0, width: 1920, height: 1080 });
    expect(stageLayout(0, landscape)).toMatchObject({ width: 1920, height: 1080 });
    expect(stageLayout(180, landscape)).toMatchObject({ width: 1920, height: 1080 });
    expect(stageLayout(90, landscape)).toMatchObject({ width: 1080, height: 1920 });
    expect(stageLayout(270, landscape)).toMatchObject({ width: 1080, height: 1920 });
    expect(stageLayout(90, { width: 800, height: 1280 })).toMatchObject({ width: 1280, height: 800 });
  });
  it('is centred and turned clockwise by the rotation', () => {
    expect(stageLayout(90, landscape).transform).toBe('translate(-50%, -50%) rotate(90deg)');
    expect(stageLayout(270, landscape).transform).toBe('translate(-50%, -50%) rotate(270deg)');
    expect(stageLayout(undefined, landscape).transform).toBe('translate(-50%, -50%) rotate(0deg)');
  });
});

describe('the opening hours on the display clock', () => {
  it('looks again at the next minute (when spans begin and end), and at least every few seconds', () => {
    const at = Date.parse('2026-11-27T08:59:58.000Z');
    expect(nextOpenCheck(at)).toBe(Date.parse('2026-11-27T09:00:00.001Z'));
    const early = Date.parse('2026-11-27T08:59:10.000Z');
    expect(nextOpenCheck(early)).toBe(early + OPEN_RECHECK_MS);
    // Tokyo 09:00–18:00 on weekdays: closed just before the boundary, open at the check after it
    const hours: OpeningHours = [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '18:00' }];
    const before = Date.parse('2026-11-27T00:00:00.000Z') - 2000; // Friday 08:59:58 in Tokyo
    expect(isOpenAt(hours, 'Asia/Tokyo', before)).toBe(false);
    expect(isOpenAt(hours, 'Asia/Tokyo', nextOpenCheck(before))).toBe(true);
  });
});
