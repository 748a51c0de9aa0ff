// Proof of play and opening hours: the display plays and records nothing outside its hours, so the service
// refuses a record made while the screen was closed by the hours in force then (its own, else its first group's, in
// its zone then), kept in each assignment-history entry. Against the real service (FerretDB, NATS), on its test clock.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { recordHoursInForce } from '../src/use-cases/hours-history';
import { ok } from './fleet-helpers';
import { announcer, call, type Device, displayGiven, member, onClock, sendPlays, useService } from './helpers';

const svc = useService();
const facts = announcer(svc);

const HOUR = 3_600_000;
const ALL = [0, 1, 2, 3, 4, 5, 6];
const daytime = [{ days: ALL, start: '08:00', end: '20:00' }];
/** Midnight UTC three days ago: every instant below is in the past, and recent enough to be judged. */
const D = Math.floor((Date.now() - 3 * 24 * HOUR) / (24 * HOUR)) * 24 * HOUR;
const clockAt = (ms: number) => {
  svc.clock.offsetMs = ms - Date.now();
};
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const record = (fileId: string, start: number, seconds = 10) => ({
  id: randomUUID(),
  fileId,
  page: 1,
  startedAt: new Date(start).toISOString(),
  seconds,
});
const send = (device: Device, plays: unknown[]) => sendPlays(svc, device, plays);
const refusedRows = async (owner: { userId: string }, from: number, to: number) => {
  const res = await call(svc, owner, 'GET', `/api/screens/plays/refused?from=${utcDay(from)}&to=${utcDay(to)}`);
  expect(res.status).toBe(200);
  return res.body as unknown as Array<{
    day: string;
    screenId: string;
    reason: string;
    records: number;
    seconds: number;
  }>;
};
/**
 * The display reports a few minutes after a change, so it is known to have received it: a display silent since before
 * a change may still follow the hours it had at its last contact (an offline display follows what it last received).
 */
const reportsAt = async (device: Device, at: number) => {
  clockAt(at);
  const res = await call(svc, { device }, 'POST', '/api/screens/device/heartbeat', {
    appVersion: '1',
    screenSize: { width: 1, height: 1 },
    nowPlaying: null,
  });
  expect(res.status).toBeLessThan(300);
};
const MIN = 60_000;
/** A display of `owner` given a file, paired at the clock's instant, in UTC. */
const displayInUtc = async (owner: { userId: string }, at: number) => {
  const file = await facts.file(owner.userId, 2, at - HOUR);
  const device = await displayGiven(svc, owner, file);
  await ok(svc, owner, 'PUT', `/api/screens/${device.screenId}`, { timeZone: 'UTC' });
  return { file, device };
};

describe('records made while the screen was closed', () => {
  it("are refused 'closed' by the screen's own hours, shown to its owner, and counted again once the hours go", async () => {
    const owner = member();
    await onClock(svc, D + HOUR, async () => {
      const { file, device } = await displayInUtc(owner, D + HOUR);
      await ok(svc, owner, 'PUT', `/api/screens/${device.screenId}`, { openingHours: daytime });
      await reportsAt(device, D + HOUR + 3 * MIN);
      clockAt(D + 30 * HOUR);
      expect(
        await send(device, [
          record(file, D + 3 * HOUR), // 03:00: closed
          record(file, D + 10 * HOUR), // 10:00: open
          record(file, D + 20 * HOUR - 30_000, 60), // runs 30 s past closing: refused whole
          record(file, D + 20 * HOUR - 10_000, 10), // ends at closing
        ]),
      ).toEqual({ accepted: 2, duplicates: 0, refused: 2, refusedByReason: { closed: 2 } });
      expect(await refusedRows(owner, D, D)).toEqual([
        { day: utcDay(D), screenId: device.screenId, screenName: 'Display', reason: 'closed', records: 2, seconds: 70 },
      ]);
      // the hours removed at 06:00 the next day: from a minute later the screen is always open again
      await ok(svc, owner, 'PUT', `/api/screens/${device.screenId}`, { openingHours: null });
      await reportsAt(device, D + 30 * HOUR + 3 * MIN);
      clockAt(D + 32 * HOUR);
      expect(
        await send(device, [record(file, D + 30 * HOUR - 10 * 60_000), record(file, D + 30 * HOUR + 5 * 60_000)]),
      ).toEqual({ accepted: 1, duplicates: 0, refused: 1, refusedByReason: { closed: 1 } });
    });
  });

  it("are refused by a group's hours given to its member screen, then by the same hours in a new zone", async () => {
    const owner = member();
    await onClock(svc, D + HOUR, async () => {
      const { file, device } = await displayInUtc(owner, D + HOUR);
      const group = await ok(svc, owner, 'POST', '/api/screens/groups', {
        name: 'Shop floor',
        screenIds: [device.screenId],
        openingHours: daytime,
      });
      await reportsAt(device, D + HOUR + 3 * MIN);
      clockAt(D + 30 * HOUR);
      expect(await send(device, [record(file, D + 3 * HOUR), record(file, D + 10 * HOUR)])).toEqual({
        accepted: 1,
        duplicates: 0,
        refused: 1,
        refusedByReason: { closed: 1 },
      });
      expect(await refusedRows(owner, D, D)).toEqual([
        { day: utcDay(D), screenId: device.screenId, screenName: 'Display', reason: 'closed', records: 1, seconds: 10 },
      ]);
      // the group's hours lifted at 06:00 the next day: 07:00 counts
      await ok(svc, owner, 'PUT', `/api/screens/groups/${group.id}`, { openingHours: null });
      await reportsAt(device, D + 30 * HOUR + 3 * MIN);
      clockAt(D + 32 * HOUR);
      expect(await send(device, [record(file, D + 31 * HOUR)])).toMatchObject({ accepted: 1, refused: 0 });
      // back at 08:00 UTC; at 09:00 UTC every screen of the group moves to Tokyo (UTC+9), where the same hours hold
      await ok(svc, owner, 'PUT', `/api/screens/groups/${group.id}`, { openingHours: daytime });
      clockAt(D + 33 * HOUR);
      await ok(svc, owner, 'POST', '/api/screens/bulk', {
        selection: { by: 'group', groupId: group.id },
        change: { kind: 'set-time-zone', timeZone: 'Asia/Tokyo' },
      });
      await reportsAt(device, D + 33 * HOUR + 3 * MIN);
      clockAt(D + 48 * HOUR);
      // 12:00 UTC is 21:00 in Tokyo: closed; 23:00 UTC is 08:00 in Tokyo: open
      expect(await send(device, [record(file, D + 36 * HOUR)])).toMatchObject({ refusedByReason: { closed: 1 } });
      expect(await send(device, [record(file, D + 47 * HOUR)])).toMatchObject({ accepted: 1, refused: 0 });
    });
  });

  it("follow the group order and a group's deletion when two groups have hours", async () => {
    const owner = member();
    const night = [{ days: ALL, start: '20:00', end: '08:00' }];
    const verdict = async (device: Device, file: string, start: number) => {
      const v = await send(device, [record(file, start)]);
      return v.accepted === 1 ? 'ok' : Object.keys(v.refusedByReason).join();
    };
    await onClock(svc, D + HOUR, async () => {
      const { file, device } = await displayInUtc(owner, D + HOUR);
      const day = await ok(svc, owner, 'POST', '/api/screens/groups', {
        name: 'Day',
        screenIds: [device.screenId],
        openingHours: daytime,
      });
      const late = await ok(svc, owner, 'POST', '/api/screens/groups', {
        name: 'Night',
        screenIds: [device.screenId],
        openingHours: night,
      });
      await reportsAt(device, D + HOUR + 3 * MIN);
      clockAt(D + 30 * HOUR);
      // 'Day' comes first: its hours apply
      expect([await verdict(device, file, D + 3 * HOUR), await verdict(device, file, D + 10 * HOUR)]).toEqual([
        'closed',
        'ok',
      ]);
      // 'Night' first from 06:00 the next day
      await ok(svc, owner, 'PUT', '/api/screens/groups/order', { groupIds: [late.id, day.id] });
      await reportsAt(device, D + 30 * HOUR + 3 * MIN);
      clockAt(D + 34 * HOUR);
      expect([await verdict(device, file, D + 31 * HOUR), await verdict(device, file, D + 33 * HOUR)]).toEqual([
        'ok',
        'closed',
      ]);
      // 'Night' deleted at 10:00: 'Day' again
      await ok(svc, owner, 'DELETE', `/api/screens/groups/${late.id}`);
      await reportsAt(device, D + 34 * HOUR + 3 * MIN);
      clockAt(D + 46 * HOUR);
      expect([await verdict(device, file, D + 35 * HOUR), await verdict(device, file, D + 45 * HOUR)]).toEqual([
        'ok',
        'closed',
      ]);
    });
  });

  it('of a screen whose hours were set before the history held them are refused once the start has recorded them', async () => {
    const owner = member();
    await onClock(svc, D + HOUR, async () => {
      const { file, device } = await displayInUtc(owner, D + HOUR);
      // hours written as an older version left them: on the record, in no history entry
      await svc.server.context.conn
        .collection('screens')
        .updateOne({ _id: device.screenId as never }, { $set: { openingHours: daytime } });
      await svc.server.context.data.view.refreshScreens([device.screenId]);
      await reportsAt(device, D + HOUR + 3 * MIN);
      clockAt(D + 30 * HOUR);
      // judged always open: the night's record counts
      expect(await send(device, [record(file, D + 3 * HOUR)])).toMatchObject({ accepted: 1, refused: 0 });
      // the start's pass records them from now (06:00 the next day); a second pass has nothing to do
      expect(await recordHoursInForce(svc.server.context)).toBeGreaterThanOrEqual(1);
      expect(await recordHoursInForce(svc.server.context)).toBe(0);
      await reportsAt(device, D + 30 * HOUR + 3 * MIN);
      clockAt(D + 53 * HOUR);
      // 03:00 the night after: closed; 10:00: open; before the pass, as before (always open)
      expect(await send(device, [record(file, D + 51 * HOUR)])).toMatchObject({ refusedByReason: { closed: 1 } });
      expect(await send(device, [record(file, D + 34 * HOUR)])).toMatchObject({ accepted: 1, refused: 0 });
      expect(await send(device, [record(file, D + 4 * HOUR)])).toMatchObject({ accepted: 1, refused: 0 });
    });
  });
});
