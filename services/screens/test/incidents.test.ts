// Incidents and their alerts. A screen whose bad state lasts past its threshold (its groups' smallest, 5
// minutes by default) while it is open gets one incident; its owner gets one alert event per grouping window (the
// account service mails it: services/account/test/screen-alerts.test.ts), and another when it recovers. The sweeps
// run on the service's clock, which the tests move (no waiting); events are read from the SCREENS stream.
import { randomUUID } from 'node:crypto';
import { type ScreenIncident, ScreenIncidentList } from '@pagecast/contracts';
import { testEnv, uniqueName } from '@pagecast/service-kit/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadServiceConfig } from '../src/config';
import { consumerNames } from '../src/events';
import { createServer } from '../src/server';
import { sweepIncidents } from '../src/use-cases/incident-sweep';
import { ok, refused, screensEvents, streamSeq } from './fleet-helpers';
import { call, type Device, member, pairDisplay, startReplica, startService, type TestService } from './helpers';

// each test on a database of its own: a sweep judges every screen of its database, and a test's clock moves
let svc: TestService;
let replica: TestService;
beforeEach(async () => {
  svc = await startService();
  replica = await startReplica(svc);
});
afterEach(async () => {
  await replica?.close();
  await svc?.close();
});

const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** The service's clock (and the replica's) stands at `ms` now and runs on from there. */
const setNow = (ms: number) => {
  svc.clock.offsetMs = ms - Date.now();
  replica.clock.offsetMs = svc.clock.offsetMs;
};
const sweep = () => sweepIncidents(svc.server.context);

async function heartbeat(device: Device, extra: Record<string, unknown> = {}) {
  return call(svc, { device }, 'POST', '/api/screens/device/heartbeat', {
    appVersion: 'test',
    screenSize: { width: 1920, height: 1080 },
    nowPlaying: null,
    ...extra,
  });
}

/** When the service last heard the screen's display (its clock runs on between setNow and the heartbeat). */
async function lastSeen(screenId: string): Promise<number> {
  const status = await svc.server.context.data.statuses.get(screenId);
  if (!status) throw new Error(`no status for ${screenId}`);
  return status.lastSeenAt.getTime();
}

async function alertsOf(ownerId: string, afterSeq: number) {
  return (await screensEvents(svc, afterSeq))
    .filter((e) => e.subject === 'screens.alert.raised.v1' && e.data.ownerId === ownerId)
    .map((e) => e.data as Record<string, unknown>);
}

async function incidentsOf(owner: { userId: string }, screenId: string): Promise<ScreenIncident[]> {
  return ScreenIncidentList.parse(await ok(svc, owner, 'GET', `/api/screens/${screenId}/incidents`));
}

describe('incidents and alerts', () => {
  it('opens one incident for a screen offline past its group’s threshold, alerts once, and again on recovery', async () => {
    const owner = member();
    const { screenId, device } = await pairDisplay(svc, owner, 'Lobby');
    await ok(svc, owner, 'POST', '/api/screens/groups', { name: 'Shop', screenIds: [screenId], alertAfterMinutes: 10 });
    const seq = await streamSeq(svc);
    const t0 = Date.now() + 3_600_000;
    setNow(t0);
    expect((await heartbeat(device)).status).toBe(200);
    const seen = await lastSeen(screenId);

    setNow(t0 + 9 * MIN + 50_000); // offline for 9 min 50 s: under the group's 10 minutes
    expect(await sweep()).toMatchObject({ swept: true, opened: 0 });
    expect(await incidentsOf(owner, screenId)).toEqual([]);

    setNow(t0 + 10 * MIN + 5000);
    expect(await sweep()).toMatchObject({ opened: 1, alerts: 0 }); // within the grouping window: not yet told
    expect(await sweep()).toMatchObject({ opened: 0 }); // open already: never twice
    const [opened] = await incidentsOf(owner, screenId);
    expect(opened).toMatchObject({ screenId, state: 'offline', startedAt: iso(seen), endedAt: null, alertedAt: null });
    // the sweep reads the unsettled incidents' ids from a set of their own, not every incident ever opened
    const unsettledSet = svc.server.context.conn.collection('screen_incidents_unsettled');
    expect((await unsettledSet.find({ _id: opened?.id } as never).toArray()).length).toBe(1);

    setNow(t0 + 11 * MIN + 10_000);
    expect(await sweep()).toMatchObject({ alerts: 1 });
    expect(await sweep()).toMatchObject({ alerts: 0 });
    const [down] = await alertsOf(owner.userId, seq);
    expect(down).toMatchObject({
      ownerId: owner.userId,
      down: [{ screenId, screenName: 'Lobby', state: 'offline', at: iso(seen), timeZone: expect.any(String) }],
      recovered: [],
      downTotal: 1,
      recoveredTotal: 0,
    });
    expect((await incidentsOf(owner, screenId))[0]?.alertedAt).not.toBeNull();

    // back: the incident ends at the next sweep, and the recovery is told after the window
    setNow(t0 + 12 * MIN);
    expect((await heartbeat(device)).status).toBe(200);
    expect(await sweep()).toMatchObject({ ended: 1, alerts: 0 });
    setNow(t0 + 13 * MIN + 5000);
    expect(await sweep()).toMatchObject({ alerts: 1 });
    // told of its end: settled, out of the set
    expect((await unsettledSet.find({ _id: opened?.id } as never).toArray()).length).toBe(0);
    const alerts = await alertsOf(owner.userId, seq);
    expect(alerts).toHaveLength(2);
    expect(alerts[1]).toMatchObject({
      down: [],
      recovered: [{ screenId, state: 'offline', at: expect.any(String) }],
      downTotal: 0,
      recoveredTotal: 1,
    });
    const [log] = await incidentsOf(owner, screenId);
    expect(log?.endedAt).not.toBeNull();
    expect(log?.recoveryAlertedAt).not.toBeNull();
    expect(alerts[0]?.alertId).not.toBe(alerts[1]?.alertId);
  });

  it('tells an incident that ended before its e-mail once, as down and recovered in the same alert', async () => {
    const owner = member();
    const { screenId, device } = await pairDisplay(svc, owner, 'Blip');
    const seq = await streamSeq(svc);
    const t0 = Date.now() + 2 * 3_600_000;
    setNow(t0);
    await heartbeat(device);
    const seen = await lastSeen(screenId);
    setNow(t0 + 5 * MIN + 5000);
    expect(await sweep()).toMatchObject({ opened: 1, alerts: 0 });
    setNow(t0 + 5 * MIN + 20_000);
    await heartbeat(device);
    expect(await sweep()).toMatchObject({ ended: 1, alerts: 0 });
    setNow(t0 + 6 * MIN + 10_000);
    expect(await sweep()).toMatchObject({ alerts: 1 });
    setNow(t0 + 8 * MIN);
    expect(await sweep()).toMatchObject({ alerts: 0 });
    const alerts = await alertsOf(owner.userId, seq);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      down: [{ screenId, at: iso(seen) }],
      recovered: [{ screenId }],
      downTotal: 1,
      recoveredTotal: 1,
    });
  });

  it('groups 200 screens of one owner dropping together into ONE alert listing 20, with 200 incidents', async () => {
    const owner = member();
    const ctx = svc.server.context;
    const t0 = Date.now() + 3 * 3_600_000;
    // 200 paired screens, set up directly (pairing each by API is not what this tests), each last seen within 20 s
    const ids = Array.from({ length: 200 }, () => randomUUID());
    for (const [i, id] of ids.entries()) {
      await ctx.data.screens.create({
        _id: id,
        ownerId: owner.userId,
        deviceId: randomUUID(),
        pairingId: randomUUID(),
        name: `Site A ${String(i + 1).padStart(3, '0')}`,
        timeZone: 'Asia/Tokyo',
        assignment: { kind: 'none' },
        pairedAt: new Date(t0 - 3_600_000),
        revokedAt: null,
      });
      await ctx.data.statuses.record({
        screenId: id,
        ownerId: owner.userId,
        lastSeenAt: new Date(t0 + (i % 20) * 1000),
        nowPlaying: null,
        appVersion: 'test',
        screenSize: null,
      });
    }
    const seq = await streamSeq(svc);
    setNow(t0 + 5 * MIN + 10_000); // the first 11 passed their threshold
    const first = await sweep();
    expect(first.opened).toBeGreaterThan(0);
    expect(first.opened).toBeLessThan(200);
    expect(first.alerts).toBe(0);
    setNow(t0 + 5 * MIN + 25_000); // all of them
    expect((await sweep()).opened).toBe(200 - first.opened);
    setNow(t0 + 6 * MIN + 15_000); // a minute after the first opened
    expect(await sweep()).toMatchObject({ alerts: 1 });
    const alerts = await alertsOf(owner.userId, seq);
    expect(alerts).toHaveLength(1);
    const [alert] = alerts as [{ down: Array<{ screenId: string }>; downTotal: number; recoveredTotal: number }];
    expect(alert.downTotal).toBe(200);
    expect(alert.recoveredTotal).toBe(0);
    expect(alert.down).toHaveLength(20);
    for (const d of alert.down) expect(ids).toContain(d.screenId);
    let incidents = 0;
    for (const id of ids) incidents += (await ctx.data.incidents.ofScreen(id, 10)).length;
    expect(incidents).toBe(200);
    // 400 writes and three sweeps one after another: a bound, not a figure (npm test runs it beside other lanes)
  }, 120_000);

  it('is quiet while a screen is closed and counts the threshold from its opening', async () => {
    const owner = member();
    const { screenId, device } = await pairDisplay(svc, owner, 'Café');
    // open 09:00–18:00 every day, UTC
    await ok(svc, owner, 'PUT', `/api/screens/${screenId}`, {
      timeZone: 'UTC',
      openingHours: [{ days: [0, 1, 2, 3, 4, 5, 6], start: '09:00', end: '18:00' }],
    });
    const seq = await streamSeq(svc);
    const day = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 86_400_000; // tomorrow 00:00 UTC
    setNow(day + 17 * 60 * MIN + 58 * MIN); // 17:58: seen, then switched off at the wall
    await heartbeat(device);
    const seen = await lastSeen(screenId);
    for (const t of [18 * 60 + 5, 20 * 60, 24 * 60 + 8 * 60 + 59]) {
      setNow(day + t * MIN); // 18:05, 20:00, 08:59 the next day: closed
      expect(await sweep()).toMatchObject({ opened: 0, alerts: 0 });
    }
    setNow(day + (24 + 9) * 60 * MIN + 4 * MIN + 50_000); // 09:04:50: open, but not for 5 minutes yet
    expect(await sweep()).toMatchObject({ opened: 0 });
    expect(await incidentsOf(owner, screenId)).toEqual([]);
    setNow(day + (24 + 9) * 60 * MIN + 5 * MIN + 5000); // 09:05:05
    expect(await sweep()).toMatchObject({ opened: 1 });
    setNow(day + (24 + 9) * 60 * MIN + 6 * MIN + 10_000);
    expect(await sweep()).toMatchObject({ alerts: 1 });
    const [incident] = await incidentsOf(owner, screenId);
    expect(incident).toMatchObject({ state: 'offline', startedAt: iso(seen), endedAt: null });
    // closing again neither ends it nor tells anything
    setNow(day + (24 + 19) * 60 * MIN);
    expect(await sweep()).toMatchObject({ ended: 0, alerts: 0 });
    expect((await incidentsOf(owner, screenId))[0]?.endedAt).toBeNull();
    expect(await alertsOf(owner.userId, seq)).toHaveLength(1);
  });

  it('keeps each incident once and sends one alert when two instances sweep at the same time', async () => {
    const owner = member();
    const devices = await Promise.all(Array.from({ length: 6 }, (_, i) => pairDisplay(svc, owner, `Twin ${i}`)));
    const seq = await streamSeq(svc);
    const t0 = Date.now() + 4 * 3_600_000;
    setNow(t0);
    for (const d of devices) await heartbeat(d.device);
    const both = () => Promise.all([sweepIncidents(svc.server.context), sweepIncidents(replica.server.context)]);
    for (const t of [5 * MIN + 5000, 5 * MIN + 10_000, 6 * MIN + 10_000, 6 * MIN + 20_000, 7 * MIN]) {
      setNow(t0 + t);
      await both();
    }
    const alerts = await alertsOf(owner.userId, seq);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ downTotal: 6 });
    for (const d of devices) expect(await incidentsOf(owner, d.screenId)).toHaveLength(1);
  });

  it('ends an unpaired screen’s incident without telling anyone', async () => {
    const owner = member();
    const { screenId, device } = await pairDisplay(svc, owner, 'Gone');
    const t0 = Date.now() + 5 * 3_600_000;
    setNow(t0);
    await heartbeat(device);
    setNow(t0 + 6 * MIN);
    expect(await sweep()).toMatchObject({ opened: 1 });
    const seq = await streamSeq(svc);
    await ok(svc, owner, 'DELETE', `/api/screens/${screenId}`);
    setNow(t0 + 8 * MIN);
    expect(await sweep()).toMatchObject({ ended: 1, alerts: 0 });
    const [incident] = await svc.server.context.data.incidents.ofScreen(screenId, 10);
    expect(incident).toMatchObject({ endedBy: 'unpaired', unsettled: false });
    expect(await alertsOf(owner.userId, seq)).toEqual([]);
  });

  it('lets a display touch only its own status: it cannot raise or clear another screen’s incident', async () => {
    const owner = member();
    const a = await pairDisplay(svc, owner, 'A');
    const b = await pairDisplay(svc, owner, 'B');
    const t0 = Date.now() + 6 * 3_600_000;
    setNow(t0);
    await heartbeat(a.device);
    await heartbeat(b.device);
    const bSeen = await lastSeen(b.screenId);
    // A keeps beating, naming B: what it says lands on A's status only
    setNow(t0 + 5 * MIN + 30_000);
    expect((await heartbeat(a.device, { screenId: b.screenId })).status).toBeLessThan(500);
    expect(await sweep()).toMatchObject({ opened: 1 });
    expect(await incidentsOf(owner, a.screenId)).toEqual([]);
    expect(await incidentsOf(owner, b.screenId)).toHaveLength(1);
    setNow(t0 + 6 * MIN);
    await heartbeat(a.device, { screenId: b.screenId });
    expect(await sweep()).toMatchObject({ ended: 0 });
    expect((await incidentsOf(owner, b.screenId))[0]?.endedAt).toBeNull();
    expect(await lastSeen(b.screenId)).toBe(bSeen);
    // B's log is its owner's only
    await refused(svc, member(), 'GET', `/api/screens/${b.screenId}/incidents`, undefined, 404, 'SCREEN_NOT_FOUND');
  });
});

describe('the test clock (failpoint screens.clock)', () => {
  it('moves the service’s time and sweeps at once, so an alert follows a threshold without waiting', async () => {
    const env = {
      ...(testEnv() as unknown as Record<string, string>),
      PORT: '0',
      LOG_LEVEL: 'silent',
      MONGO_DB: uniqueName('screens_clock').replace(/-/g, '_'),
      CONSUMER_PREFIX: uniqueName('screens-clock'),
      EVENTS_DELIVER: 'new',
      INCIDENT_SWEEP_MS: '0',
      PAGECAST_FAILPOINTS: 'screens.clock',
    };
    const server = await createServer(loadServiceConfig(env));
    const clocked: TestService = { server, env, clock: { offsetMs: 0 }, close: async () => {} };
    try {
      const owner = member();
      const { screenId, device } = await pairDisplay(clocked, owner, 'Clocked');
      const seq = await streamSeq(clocked);
      expect(
        (
          await call(clocked, { device }, 'POST', '/api/screens/device/heartbeat', {
            appVersion: 'test',
            screenSize: { width: 1, height: 1 },
            nowPlaying: null,
          })
        ).status,
      ).toBe(200);
      const moved = await call(clocked, null, 'POST', '/internal/test/clock', { ms: 5 * MIN + 5000 });
      expect(moved.status).toBe(200);
      expect(moved.body.sweep).toMatchObject({ swept: true, opened: 1, alerts: 0 });
      const again = await call(clocked, null, 'POST', '/internal/test/clock', { ms: 61_000 });
      expect(again.body.sweep).toMatchObject({ alerts: 1 });
      const alerts = (await screensEvents(clocked, seq)).filter(
        (e) => e.subject === 'screens.alert.raised.v1' && e.data.ownerId === owner.userId,
      );
      expect(alerts).toHaveLength(1);
      expect(alerts[0]?.data).toMatchObject({ down: [{ screenId, state: 'offline' }] });
    } finally {
      for (const [stream, name] of Object.entries(consumerNames(env.CONSUMER_PREFIX)))
        await server.context.nats.jsm.consumers.delete(stream, name).catch(() => {});
      await server.close({ dropDatabase: true });
    }
    // without the failpoint there is no such route
    const plain = await call(svc, null, 'POST', '/internal/test/clock', { ms: 1000 });
    expect(plain.status).toBe(404);
  });
});
