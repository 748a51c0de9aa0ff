// Fleet health (part "health") against the real service (FerretDB, NATS): rotation and opening hours of
// screens and groups (round trip, refusals that change nothing, what reaches the display), what a display reports it
// shows (refused when it is not the screen's content, stored otherwise with since when it is wrong), and the fleet
// view (each state, counts, filters, paging over 400 screens of one owner).
import { randomUUID } from 'node:crypto';
import { SCREEN_DEFAULT_TIME_ZONE, wallClock } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { eventually, fleetEvents, manifest, ok, refused, screensEvents, streamSeq } from './fleet-helpers';
import {
  announcer,
  type Caller,
  call,
  type Device,
  eventsHandled,
  type Json,
  member,
  pairDisplay,
  startReplica,
  useService,
} from './helpers';

const svc = useService();

const now = () => svc.server.context.clock.ms();
const iso = (ms: number) => new Date(ms).toISOString();
/** Moves the service's clock forward. */
const advance = (ms: number) => {
  svc.clock.offsetMs += ms;
};

/** Open all week 00:00-24:00 except today (in the screen's zone): closed now. */
function hoursClosedToday(): Array<{ days: number[]; start: string; end: string }> {
  const { day } = wallClock(now(), SCREEN_DEFAULT_TIME_ZONE);
  return [{ days: [0, 1, 2, 3, 4, 5, 6].filter((d) => d !== day), start: '00:00', end: '24:00' }];
}
/** Open today only (in the screen's zone): open now. */
function hoursOpenToday(): Array<{ days: number[]; start: string; end: string }> {
  const { day } = wallClock(now(), SCREEN_DEFAULT_TIME_ZONE);
  return [{ days: [day], start: '00:00', end: '24:00' }];
}

const page = (fileId: string, opts: { shownAt?: number; holdSeconds?: number; error?: string | null } = {}) => ({
  kind: 'page',
  fileId,
  page: 1,
  shownAt: iso(opts.shownAt ?? now()),
  holdSeconds: opts.holdSeconds ?? 3600,
  loaded: (opts.error ?? null) === null,
  error: opts.error ?? null,
});

function beat(device: Device, shows?: unknown, extra: Record<string, unknown> = {}) {
  return call(svc, { device }, 'POST', '/api/screens/device/heartbeat', {
    appVersion: 'test',
    screenSize: { width: 1920, height: 1080 },
    nowPlaying: null,
    ...(shows === undefined ? {} : { shows }),
    ...extra,
  });
}
async function beatOk(device: Device, shows?: unknown, extra: Record<string, unknown> = {}) {
  const res = await beat(device, shows, extra);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const screenOf = async (owner: Caller, screenId: string): Promise<Json> =>
  ((await ok(svc, owner, 'GET', '/api/screens')) as unknown as Json[]).find((s) => s.id === screenId) as Json;
const healthOf = (owner: Caller, query = '') => ok(svc, owner, 'GET', `/api/screens/health${query}`);
const healthItem = async (owner: Caller, screenId: string): Promise<Json> => {
  const all = await healthOf(owner, '?limit=200');
  return (all.items as Json[]).find((i) => i.screenId === screenId) as Json;
};

async function content(ownerId: string) {
  const a = announcer(svc);
  const at = Date.now() - 60_000;
  const fileA = await a.file(ownerId, 3, at);
  const fileB = await a.file(ownerId, 2, at);
  const listB = await a.playlist(ownerId, [fileB], at);
  await eventsHandled(svc);
  return { fileA, fileB, listB };
}

describe('rotation and opening hours', () => {
  it('round trip on a screen: stored, listed, in its manifest (whose ETag changes), and the display is told', async () => {
    const owner = member();
    const { screenId, device } = await pairDisplay(svc, owner, 'Portrait');
    const fresh = await screenOf(owner, screenId);
    expect({ rotation: fresh.rotation, openingHours: fresh.openingHours }).toEqual({ rotation: 0, openingHours: null });
    const before = await call(svc, { device }, 'GET', '/api/screens/device/me');
    expect({ rotation: before.body.rotation, openingHours: before.body.openingHours }).toEqual({
      rotation: 0,
      openingHours: null,
    });
    const seq = await streamSeq(svc);
    const hours = [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '18:00' }];
    const updated = await ok(svc, owner, 'PUT', `/api/screens/${screenId}`, { rotation: 90, openingHours: hours });
    expect({ rotation: updated.rotation, openingHours: updated.openingHours }).toEqual({
      rotation: 90,
      openingHours: hours,
    });
    const listed = await screenOf(owner, screenId);
    expect({ rotation: listed.rotation, openingHours: listed.openingHours }).toEqual({
      rotation: 90,
      openingHours: hours,
    });
    const after = await call(svc, { device }, 'GET', '/api/screens/device/me');
    expect({ rotation: after.body.rotation, openingHours: after.body.openingHours }).toEqual({
      rotation: 90,
      openingHours: hours,
    });
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    const changed = (await screensEvents(svc, seq)).filter(
      (e) => e.subject === 'screens.screen.changed.v1' && e.data.screenId === screenId,
    );
    expect(changed.length).toBe(1);
    // back to none of its own
    const cleared = await ok(svc, owner, 'PUT', `/api/screens/${screenId}`, { openingHours: null });
    expect({ rotation: cleared.rotation, openingHours: cleared.openingHours }).toEqual({
      rotation: 90,
      openingHours: null,
    });
  });

  it('refuses an absurd rotation, an empty span, 29 spans and thresholds out of range, changing nothing', async () => {
    const owner = member();
    const { screenId } = await pairDisplay(svc, owner, 'Wall');
    const hours = [{ days: [0], start: '10:00', end: '12:00' }];
    await ok(svc, owner, 'PUT', `/api/screens/${screenId}`, { rotation: 180, openingHours: hours });
    const keyOf = async (body: unknown) =>
      ((await refused(svc, owner, 'PUT', `/api/screens/${screenId}`, body, 400, 'VALIDATION')).issues as Json[])[0]
        ?.key;
    expect(await keyOf({ rotation: 45 })).toBe('validation.rotationInvalid');
    expect(await keyOf({ rotation: 45, name: 'Renamed' })).toBe('validation.rotationInvalid');
    expect(await keyOf({ openingHours: [{ days: [1], start: '09:00', end: '09:00' }] })).toBe(
      'validation.openingSpanEmpty',
    );
    const many = Array.from({ length: 29 }, (_, i) => ({ days: [i % 7], start: '09:00', end: '10:00' }));
    expect(await keyOf({ openingHours: many })).toBe('validation.openingHoursTooMany');
    const kept = await screenOf(owner, screenId);
    expect({ name: kept.name, rotation: kept.rotation, openingHours: kept.openingHours }).toEqual({
      name: 'Wall',
      rotation: 180,
      openingHours: hours,
    });

    const groupKey = async (method: string, path: string, body: unknown) =>
      ((await refused(svc, owner, method, path, body, 400, 'VALIDATION')).issues as Json[])[0]?.key;
    expect(await groupKey('POST', '/api/screens/groups', { name: 'Zero', alertAfterMinutes: 0 })).toBe(
      'validation.alertAfterInvalid',
    );
    expect(await groupKey('POST', '/api/screens/groups', { name: 'Day+', alertAfterMinutes: 1441 })).toBe(
      'validation.alertAfterInvalid',
    );
    expect(await ok(svc, owner, 'GET', '/api/screens/groups')).toEqual([]);
    const group = await ok(svc, owner, 'POST', '/api/screens/groups', { name: 'Shop', screenIds: [screenId] });
    expect({ openingHours: group.openingHours, alertAfterMinutes: group.alertAfterMinutes }).toEqual({
      openingHours: null,
      alertAfterMinutes: 5,
    });
    const set = await ok(svc, owner, 'PUT', `/api/screens/groups/${group.id}`, {
      alertAfterMinutes: 1440,
      openingHours: hours,
    });
    expect({ openingHours: set.openingHours, alertAfterMinutes: set.alertAfterMinutes }).toEqual({
      openingHours: hours,
      alertAfterMinutes: 1440,
    });
    expect(await groupKey('PUT', `/api/screens/groups/${group.id}`, { alertAfterMinutes: 0 })).toBe(
      'validation.alertAfterInvalid',
    );
    expect(
      await groupKey('PUT', `/api/screens/groups/${group.id}`, {
        openingHours: [{ days: [2], start: '23:00', end: '23:00' }],
      }),
    ).toBe('validation.openingSpanEmpty');
    const [after] = (await ok(svc, owner, 'GET', '/api/screens/groups')) as unknown as Json[];
    expect({ openingHours: after?.openingHours, alertAfterMinutes: after?.alertAfterMinutes }).toEqual({
      openingHours: hours,
      alertAfterMinutes: 1440,
    });
  });

  it("the manifest says the hours that apply: the screen's own, else its first group's (member's order) with hours", async () => {
    const owner = member();
    const { screenId, device } = await pairDisplay(svc, owner, 'Lobby');
    const morning = [{ days: [1, 2, 3, 4, 5], start: '07:00', end: '12:00' }];
    const evening = [{ days: [5, 6], start: '18:00', end: '02:00' }];
    const own = [{ days: [0, 6], start: '10:00', end: '16:00' }];
    const first = await ok(svc, owner, 'POST', '/api/screens/groups', { name: 'First', screenIds: [screenId] });
    const second = await ok(svc, owner, 'POST', '/api/screens/groups', {
      name: 'Second',
      screenIds: [screenId],
      openingHours: evening,
      alertAfterMinutes: 3,
    });
    expect((await manifest(svc, device)).openingHours).toEqual(evening);
    // the first group gets hours: it wins; its members' displays are told
    const seq = await streamSeq(svc);
    await ok(svc, owner, 'PUT', `/api/screens/groups/${first.id}`, { openingHours: morning });
    const [event] = await fleetEvents(svc, owner.userId, seq, 1);
    expect(event?.data).toMatchObject({ kind: 'group-changed', groupId: first.id, screenIds: [screenId] });
    expect((await manifest(svc, device)).openingHours).toEqual(morning);
    // the member's order decides
    await ok(svc, owner, 'PUT', '/api/screens/groups/order', { groupIds: [second.id, first.id] });
    expect((await manifest(svc, device)).openingHours).toEqual(evening);
    // its own hours win over every group's
    await ok(svc, owner, 'PUT', `/api/screens/${screenId}`, { openingHours: own, rotation: 270 });
    const m = await manifest(svc, device);
    expect({ openingHours: m.openingHours, rotation: m.rotation }).toEqual({ openingHours: own, rotation: 270 });
    // the health view says the same, with the smallest threshold of its groups
    const item = await healthItem(owner, screenId);
    expect({
      openingHours: item.openingHours,
      alertAfterMinutes: item.alertAfterMinutes,
      rotation: item.rotation,
    }).toEqual({ openingHours: own, alertAfterMinutes: 3, rotation: 270 });
  });
});

describe('what a display reports it shows', () => {
  it("refuses a page of another member's file and a message of a takeover not its own; stores nothing", async () => {
    const owner = member();
    const stranger = member();
    const { fileA, fileB } = await content(owner.userId);
    const foreign = await announcer(svc).file(stranger.userId, 1, Date.now() - 60_000);
    await eventsHandled(svc);
    const a = await pairDisplay(svc, owner, 'A');
    const b = await pairDisplay(svc, owner, 'B');
    await ok(svc, owner, 'PUT', `/api/screens/${a.screenId}`, { assignment: { kind: 'file', fileId: fileA } });
    await beatOk(a.device, page(fileA), { nowPlaying: { fileId: fileA, page: 1 } });
    const stored = await screenOf(owner, a.screenId);

    advance(5_000);
    const other = { nowPlaying: { fileId: foreign, page: 1 } };
    for (const shows of [page(foreign)]) {
      const res = await beat(a.device, shows, other);
      expect({ status: res.status, code: res.body.code }).toEqual({
        status: 403,
        code: 'REPORTED_CONTENT_NOT_ALLOWED',
      });
    }
    const unchanged = await screenOf(owner, a.screenId);
    expect({ lastSeenAt: unchanged.lastSeenAt, nowPlaying: unchanged.nowPlaying }).toEqual({
      lastSeenAt: stored.lastSeenAt,
      nowPlaying: { fileId: fileA, page: 1 },
    });
    expect((await healthItem(owner, a.screenId)).shows).toMatchObject({ kind: 'page', fileId: fileA });

    // a message takeover of the group B is in: B may report it, A may not (nor may another owner's screen)
    const west = await ok(svc, owner, 'POST', '/api/screens/groups', { name: 'West', screenIds: [b.screenId] });
    const takeover = await ok(svc, owner, 'POST', '/api/screens/takeovers', {
      target: { kind: 'groups', groupIds: [west.id] },
      content: { kind: 'message', title: 'Closed early', body: '' },
      minutes: 30,
    });
    const message = { kind: 'message', takeoverId: takeover.id, shownAt: iso(now()) };
    const refusedMessage = await beat(a.device, message);
    expect({ status: refusedMessage.status, code: refusedMessage.body.code }).toEqual({
      status: 403,
      code: 'REPORTED_CONTENT_NOT_ALLOWED',
    });
    const s = await pairDisplay(svc, stranger, 'S');
    expect((await beat(s.device, message)).status).toBe(403);
    expect((await healthItem(owner, a.screenId)).shows).toMatchObject({ kind: 'page', fileId: fileA });
    await beatOk(b.device, message);
    const bItem = await healthItem(owner, b.screenId);
    expect({ shows: bItem.shows, expected: bItem.expected, state: bItem.state }).toEqual({
      shows: message,
      expected: { kind: 'message', takeoverId: takeover.id },
      state: 'ok',
    });
    // a blank screen is always allowed; a report without `shows` (an older display) is accepted as before
    await beatOk(a.device, { kind: 'blank', shownAt: iso(now()) });
    await beatOk(a.device);
    // a file of its owner's library that it is not given (a display stuck on what it had before) is stored and
    // judged wrong, not refused: refused, its heartbeats would fail and the owner would see "offline" instead
    await beatOk(a.device, page(fileB));
    const stale = await svc.server.context.data.statuses.get(a.screenId);
    expect({ shows: stale?.shows, wrong: typeof stale?.wrongSince }).toEqual({
      shows: expect.objectContaining({ fileId: fileB }),
      wrong: 'number',
    });
  });

  it('counts a run of failed images from its first failure, across pages', async () => {
    const owner = member();
    const { fileA } = await content(owner.userId);
    const { screenId, device } = await pairDisplay(svc, owner, 'Broken');
    await ok(svc, owner, 'PUT', `/api/screens/${screenId}`, { assignment: { kind: 'file', fileId: fileA } });
    const status = () => svc.server.context.data.statuses.get(screenId);
    const before = now();
    await beatOk(device, page(fileA, { error: 'not-found' }));
    // the server's time of the first failed report
    const firstFailure = (await status())?.brokenSince as number;
    expect(firstFailure).toBeGreaterThanOrEqual(before);
    expect(firstFailure).toBeLessThanOrEqual(now());
    // the next page fails too, a while later: the run keeps its start (a page still loading keeps it as well)
    advance(20_000);
    await beatOk(device, { ...page(fileA), page: 2, loaded: false, error: null });
    await beatOk(device, { ...page(fileA, { error: 'not-found' }), page: 2 });
    expect((await status())?.brokenSince).toBe(firstFailure);
    expect(await healthItem(owner, screenId)).toMatchObject({ state: 'broken', since: iso(firstFailure) });
    // a page that draws ends the run
    await beatOk(device, { ...page(fileA), page: 3 });
    expect((await status())?.brokenSince).toBeNull();
    expect((await healthItem(owner, screenId)).state).toBe('ok');
  });

  it('keeps since when it shows the wrong thing: wrong after a minute, right again at once', async () => {
    const owner = member();
    const { fileA, fileB, listB } = await content(owner.userId);
    const { screenId, device } = await pairDisplay(svc, owner, 'Stale');
    // its own assignment (file A) wins over its group's (playlist of B): B is given, but not what it should show
    await ok(svc, owner, 'POST', '/api/screens/groups', {
      name: 'Fallback',
      screenIds: [screenId],
      assignment: { kind: 'playlist', playlistId: listB },
    });
    await ok(svc, owner, 'PUT', `/api/screens/${screenId}`, { assignment: { kind: 'file', fileId: fileA } });
    const status = () => svc.server.context.data.statuses.get(screenId);

    await beatOk(device, page(fileA));
    expect((await status())?.wrongSince).toBeNull();
    const staleAt = now();
    await beatOk(device, page(fileB, { shownAt: staleAt }));
    // since the report that turned it wrong (the server's time)
    const wrongSince = (await status())?.wrongSince as number;
    expect(wrongSince).toBeGreaterThanOrEqual(staleAt);
    expect(wrongSince).toBeLessThanOrEqual(now());
    expect(await healthItem(owner, screenId)).toMatchObject({ state: 'ok', expected: { kind: 'file', fileId: fileA } });
    advance(30_000);
    await beatOk(device, page(fileB, { shownAt: staleAt }));
    expect((await status())?.wrongSince).toBe(wrongSince);
    expect((await healthItem(owner, screenId)).state).toBe('ok');
    advance(31_000);
    await beatOk(device, page(fileB, { shownAt: staleAt }));
    expect(await healthItem(owner, screenId)).toMatchObject({ state: 'wrong', since: iso(wrongSince) });
    const counts = (await healthOf(owner)).counts;
    expect(counts).toMatchObject({ total: 1, wrong: 1, online: 1 });
    // right again: cleared at once
    await beatOk(device, page(fileA));
    expect((await status())?.wrongSince).toBeNull();
    expect((await healthItem(owner, screenId)).state).toBe('ok');
    // closed by the server's hours: nothing is wrong while closed
    await ok(svc, owner, 'PUT', `/api/screens/${screenId}`, { openingHours: hoursClosedToday() });
    await beatOk(device, { kind: 'blank', shownAt: iso(now()) }, { closed: true });
    const closed = await status();
    expect({ wrongSince: closed?.wrongSince, closedReported: closed?.closedReported }).toEqual({
      wrongSince: null,
      closedReported: true,
    });
    expect((await healthItem(owner, screenId)).state).toBe('closed');
  });

  it('judges frozen on the server clock: a display whose clock is behind is not frozen', async () => {
    const owner = member();
    const { fileA } = await content(owner.userId);
    const { screenId, device } = await pairDisplay(svc, owner, 'Slow clock');
    await ok(svc, owner, 'PUT', `/api/screens/${screenId}`, { assignment: { kind: 'file', fileId: fileA } });
    // its clock is ten minutes behind: the page it just drew says it appeared ten minutes ago
    const skewed = now() - 600_000;
    await beatOk(device, page(fileA, { shownAt: skewed, holdSeconds: 10 }));
    expect((await healthItem(owner, screenId)).state).toBe('ok');
    // still the same picture 41 s later (hold 10 + slack 30): now it is frozen
    advance(41_000);
    await beatOk(device, page(fileA, { shownAt: skewed, holdSeconds: 10 }));
    expect((await healthItem(owner, screenId)).state).toBe('frozen');
  });

  it('keeps the last image that failed until another fails', async () => {
    const owner = member();
    const { fileA } = await content(owner.userId);
    const { screenId, device } = await pairDisplay(svc, owner, 'Broken');
    await ok(svc, owner, 'PUT', `/api/screens/${screenId}`, { assignment: { kind: 'file', fileId: fileA } });
    const failedAt = now();
    // the display's clock says an hour earlier: the server dates the failure by its own (when it heard of it)
    await beatOk(device, page(fileA, { shownAt: failedAt - 3_600_000, error: 'not-found' }));
    const broken = (await healthItem(owner, screenId)) as { since: string; lastImageError: { at: string } };
    expect(broken).toMatchObject({ state: 'broken', lastImageError: { error: 'not-found', fileId: fileA, page: 1 } });
    const heardAt = Date.parse(broken.since);
    expect(heardAt).toBeGreaterThanOrEqual(failedAt);
    expect(heardAt).toBeLessThan(failedAt + 2_000);
    expect(broken.lastImageError.at).toBe(broken.since);
    advance(2_000);
    await beatOk(device, page(fileA));
    expect(await healthItem(owner, screenId)).toMatchObject({
      state: 'ok',
      lastImageError: { error: 'not-found', fileId: fileA, at: iso(heardAt) },
    });
  });
});

describe('the fleet view', () => {
  it('each state, counts over the group and name filters, the state filter, paging by name', async () => {
    const owner = member();
    const { fileA } = await content(owner.userId);
    const names = ['Ok', 'Offline', 'Never', 'Closed', 'Broken', 'Frozen'];
    const displays = new Map<string, Device>();
    for (const name of names) displays.set(name, (await pairDisplay(svc, owner, name)).device);
    const d = (name: string) => displays.get(name) as Device;
    for (const device of displays.values()) {
      await ok(svc, owner, 'PUT', `/api/screens/${device.screenId}`, { assignment: { kind: 'file', fileId: fileA } });
    }
    await ok(svc, owner, 'PUT', `/api/screens/${d('Closed').screenId}`, { openingHours: hoursClosedToday() });
    await ok(svc, owner, 'PUT', `/api/screens/${d('Ok').screenId}`, { openingHours: hoursOpenToday() });
    await beatOk(d('Offline'), page(fileA));
    // frozen is judged on the server's clock, from when it first heard of the picture
    const frozenShownAt = now();
    await beatOk(d('Frozen'), page(fileA, { shownAt: frozenShownAt, holdSeconds: 5 }));
    advance(40_000);
    await beatOk(d('Ok'), page(fileA));
    await beatOk(d('Closed'), { kind: 'blank', shownAt: iso(now()) }, { closed: true });
    await beatOk(d('Broken'), page(fileA, { error: 'decode-failed' }));
    await beatOk(d('Frozen'), page(fileA, { shownAt: frozenShownAt, holdSeconds: 5 }));

    const all = await healthOf(owner);
    expect(all.counts).toEqual({
      total: 6,
      online: 4,
      offline: 2,
      closed: 1,
      broken: 1,
      frozen: 1,
      wrong: 0,
      ok: 1,
    });
    const stateOf = Object.fromEntries((all.items as Json[]).map((i) => [i.name, i.state]));
    expect(stateOf).toEqual({
      Ok: 'ok',
      Offline: 'offline',
      Never: 'offline',
      Closed: 'closed',
      Broken: 'broken',
      Frozen: 'frozen',
    });
    // by name (then id)
    expect((all.items as Json[]).map((i) => i.name)).toEqual(['Broken', 'Closed', 'Frozen', 'Never', 'Offline', 'Ok']);
    const frozen = (all.items as Json[]).find((i) => i.name === 'Frozen') as Json;
    // hold 5 + slack 30 after the server first heard of it (the service's clock runs on while the test does)
    const frozenFor = Date.parse(frozen.since) - frozenShownAt;
    expect(frozenFor).toBeGreaterThanOrEqual(35_000);
    expect(frozenFor).toBeLessThan(40_000);
    const never = (all.items as Json[]).find((i) => i.name === 'Never') as Json;
    expect({ since: never.since, lastSeenAt: never.lastSeenAt }).toEqual({ since: null, lastSeenAt: null });

    const offline = await healthOf(owner, '?state=offline');
    expect((offline.items as Json[]).map((i) => i.name)).toEqual(['Never', 'Offline']);
    expect(offline.counts).toEqual(all.counts);
    const online = await healthOf(owner, '?state=online');
    expect((online.items as Json[]).map((i) => i.name)).toEqual(['Broken', 'Closed', 'Frozen', 'Ok']);
    // q: part of the name, any case; counts follow q and group, not state
    const named = await healthOf(owner, '?q=OF&state=ok');
    expect(named.counts).toMatchObject({ total: 1, offline: 1, ok: 0 });
    expect(named.items).toEqual([]);
    const group = await ok(svc, owner, 'POST', '/api/screens/groups', {
      name: 'Two',
      screenIds: [d('Ok').screenId, d('Broken').screenId],
    });
    const grouped = await healthOf(owner, `?groupId=${group.id}`);
    expect(grouped.counts).toMatchObject({ total: 2, online: 2, ok: 1, broken: 1 });
    expect((grouped.items as Json[]).map((i) => i.name)).toEqual(['Broken', 'Ok']);

    // pages of 4 then 2, in order, none twice
    const first = await healthOf(owner, '?limit=4');
    expect((first.items as Json[]).map((i) => i.name)).toEqual(['Broken', 'Closed', 'Frozen', 'Never']);
    expect(typeof first.nextCursor).toBe('string');
    const second = await healthOf(owner, `?limit=4&cursor=${encodeURIComponent(first.nextCursor)}`);
    expect((second.items as Json[]).map((i) => i.name)).toEqual(['Offline', 'Ok']);
    expect(second.nextCursor).toBeNull();
    await refused(svc, owner, 'GET', '/api/screens/health?cursor=nonsense', undefined, 400, 'VALIDATION');
    await refused(svc, owner, 'GET', '/api/screens/health?state=asleep', undefined, 400, 'VALIDATION');
    // another member sees none of them
    expect((await healthOf(member())).counts.total).toBe(0);
  });

  it("follows another instance's changes at once (its events drop this instance's kept list)", async () => {
    const owner = member();
    const { screenId } = await pairDisplay(svc, owner, 'Before');
    const replica = await startReplica(svc);
    try {
      expect((await healthItem(owner, screenId)).name).toBe('Before');
      // this instance's kept list cannot age out now: only the replica's event can drop it
      advance(-3_600_000);
      const renamed = await call(replica, owner, 'PUT', `/api/screens/${screenId}`, { name: 'After', rotation: 180 });
      expect(renamed.status).toBe(200);
      const item = await eventually(async () => {
        const found = await healthItem(owner, screenId);
        return found.name === 'After' ? found : undefined;
      });
      expect(item.rotation).toBe(180);
    } finally {
      advance(3_600_000);
      await replica.close();
    }
  });

  it('a screen written to the database without an event shows once the view loads again (a restart, a gap)', async () => {
    const owner = member();
    await pairDisplay(svc, owner, 'First');
    expect((await healthOf(owner)).counts.total).toBe(1);
    // written straight to the database: no instance announced it (every change the service makes announces one)
    await svc.server.context.conn.collection('screens').insertOne({
      _id: `other-${randomUUID()}`,
      ownerId: owner.userId,
      deviceId: `dev-${randomUUID()}`,
      pairingId: `pair-${randomUUID()}`,
      name: 'Second',
      timeZone: SCREEN_DEFAULT_TIME_ZONE,
      assignment: { kind: 'none' },
      pairedAt: new Date(now()),
      revokedAt: null,
    } as never);
    expect((await healthOf(owner)).counts.total).toBe(1); // the view: nothing told it
    await svc.server.context.data.view.load();
    expect((await healthOf(owner)).counts.total).toBe(2);
  });

  it('400 screens of one owner: counts and paging right (its speed at 10,000: npm run bench -- "fleet view")', async () => {
    const owner = member();
    const { conn } = svc.server.context;
    const { statuses } = svc.server.context.data;
    const N = 400;
    const at = new Date(now());
    const screens = Array.from({ length: N }, (_, i) => ({
      _id: `bulk-${randomUUID()}`,
      ownerId: owner.userId,
      deviceId: `dev-${randomUUID()}`,
      pairingId: `pair-${randomUUID()}`,
      name: `Screen ${String(i).padStart(4, '0')}`,
      timeZone: SCREEN_DEFAULT_TIME_ZONE,
      assignment: { kind: 'none' },
      pairedAt: at,
      revokedAt: null,
    }));
    for (let i = 0; i < N; i += 500) await conn.collection('screens').insertMany(screens.slice(i, i + 500) as never[]);
    // written straight to the database (no event): the view loads them as a restart would
    await svc.server.context.data.view.load();
    // every 4th never reported (offline), every 4th + 1 broken, the rest show nothing (ok: nothing assigned)
    const reported = screens.filter((_, i) => i % 4 !== 0);
    for (let i = 0; i < reported.length; i += 100) {
      await Promise.all(
        reported.slice(i, i + 100).map((s) => {
          const index = Number(s.name.slice(7));
          return statuses.record({
            screenId: s._id,
            ownerId: owner.userId,
            lastSeenAt: at,
            nowPlaying: null,
            appVersion: 'bulk',
            screenSize: null,
            shows:
              index % 4 === 1
                ? {
                    kind: 'page',
                    fileId: 'f',
                    page: 1,
                    shownAt: at.toISOString(),
                    holdSeconds: 10,
                    loaded: false,
                    error: 'load-failed',
                  }
                : { kind: 'blank', shownAt: at.toISOString() },
            wrongSince: null,
          });
        }),
      );
    }
    const first = { body: await healthOf(owner, '?limit=200') };
    const broken = { body: await healthOf(owner, '?state=broken&limit=50') };
    expect(first.body.counts).toEqual({
      total: N,
      online: N * 0.75,
      offline: N / 4,
      closed: 0,
      broken: N / 4,
      frozen: 0,
      wrong: 0,
      ok: N / 2,
    });
    expect((broken.body.items as Json[]).map((i) => i.name)).toEqual(
      Array.from({ length: 50 }, (_, k) => `Screen ${String(4 * k + 1).padStart(4, '0')}`),
    );
    // every page of 200, in name order, each screen once
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const body: Json = await healthOf(owner, `?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...(body.items as Json[]).map((i) => i.name as string));
      cursor = body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(N / 200);
    expect(seen).toEqual(screens.map((s) => s.name));
  });
});
