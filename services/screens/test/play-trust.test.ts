// Attacks on proof of play and on a display's reports, through the real service (FerretDB, NATS): what a licensed
// but dishonest display can make a seller's sold report, its screen's health and its owner's agenda say. Each test
// is a finding of an attack on a fresh stack; the figures they print are the report's before/after.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sweepIncidents } from '../src/use-cases/incident-sweep';
import {
  announcer,
  call,
  type Device,
  displayGiven,
  eventsHandled,
  member,
  onClock,
  sendPlays,
  useService,
} from './helpers';

const svc = useService();
const facts = announcer(svc);

const MIN = 60_000;
const HOUR = 60 * MIN;
const clockAt = (ms: number) => {
  svc.clock.offsetMs = ms - Date.now();
};
const now = () => Date.now() + svc.clock.offsetMs;
const tokyoDay = (ms: number) => new Date(ms).toLocaleDateString('en-CA', { timeZone: 'Asia/Tokyo' });
const record = (fileId: string, start: number, seconds: number) => ({
  id: randomUUID(),
  fileId,
  page: 1,
  startedAt: new Date(start).toISOString(),
  seconds,
});
const heartbeat = (device: Device, extra: Record<string, unknown> = {}) =>
  call(svc, { device }, 'POST', '/api/screens/device/heartbeat', {
    appVersion: '1',
    screenSize: { width: 1, height: 1 },
    nowPlaying: null,
    ...extra,
  });
const soldRows = async (seller: { userId: string }, from: number, to: number) => {
  const res = await call(svc, seller, 'GET', `/api/screens/plays/sold?from=${tokyoDay(from)}&to=${tokyoDay(to)}`);
  expect(res.status).toBe(200);
  return res.body as unknown as Array<{ plays: number; seconds?: number }>;
};
const soldTotal = async (seller: { userId: string }, from: number, to: number) => {
  const rows = await soldRows(seller, from, to);
  return {
    plays: rows.reduce((n, r) => n + r.plays, 0),
    seconds: Math.round(rows.reduce((n, r) => n + (r.seconds ?? 0), 0) * 1000) / 1000,
  };
};

/** A buyer's display given a seller's file (pages of 10 s) it holds a live licence for, paired at `t0`. */
async function licensedDisplay(t0: number) {
  const seller = member();
  const buyer = member();
  const file = await facts.file(seller.userId, 1, t0 - HOUR);
  await facts.purchase(buyer.userId, file, seller.userId, t0 - HOUR, t0 + 30 * 24 * HOUR);
  await eventsHandled(svc);
  const device = await displayGiven(svc, buyer, file);
  return { seller, buyer, file, device };
}

describe('plays count time, not records', () => {
  it('500 records of 0.001 s, 2 ms apart, sent twice, are not 1,000 plays for a second of screen time', async () => {
    const t0 = Date.now() - 2 * HOUR;
    let total = { plays: 0, seconds: 0 };
    await onClock(svc, t0, async () => {
      const { seller, file, device } = await licensedDisplay(t0);
      clockAt(t0 + HOUR);
      const start = t0 + 10 * MIN;
      // two batches of 500 crumbs, a second apart: 1,000 records, one second of screen time
      for (const offset of [0, 1000]) {
        const crumbs = Array.from({ length: 500 }, (_, i) => record(file, start + offset + 2 * i, 0.001));
        await sendPlays(svc, device, crumbs);
      }
      total = await soldTotal(seller, t0, now());
    });
    console.log(`[figures] 1,000 records of 0.001 s: the sold report reads ${JSON.stringify(total)}`);
    expect(total.plays).toBe(0);
    expect(total.seconds).toBeLessThanOrEqual(2);
  });

  it('fifty 2 s records each overlapping the one before by 0.99 s are not fifty plays', async () => {
    const t0 = Date.now() - 2 * HOUR;
    let total = { plays: 0, seconds: 0 };
    let wall = 0;
    await onClock(svc, t0, async () => {
      const { seller, file, device } = await licensedDisplay(t0);
      clockAt(t0 + HOUR);
      const start = t0 + 10 * MIN;
      const chain = Array.from({ length: 50 }, (_, i) => record(file, start + i * 1010, 2));
      wall = (49 * 1010 + 2000) / 1000;
      await sendPlays(svc, device, chain);
      total = await soldTotal(seller, t0, now());
    });
    console.log(`[figures] 50 × 2 s overlapping by 0.99 s (${wall} s of wall time): sold ${JSON.stringify(total)}`);
    // pages of 10 s: no record of 2 s (1.01 s of it new) is a play; the screen time credited never exceeds the wall's
    expect(total.plays).toBe(0);
    expect(total.seconds).toBeLessThanOrEqual(wall);
  });

  it('an honest display gets one play per page shown, and its seconds, in the sold report', async () => {
    const t0 = Date.now() - 2 * HOUR;
    let total = { plays: 0, seconds: 0 };
    await onClock(svc, t0, async () => {
      const { seller, file, device } = await licensedDisplay(t0);
      clockAt(t0 + HOUR);
      const start = t0 + 10 * MIN;
      // back to back with a rounding overlap of 50 ms, and one page cut short at 3 s (under half its 10 s)
      const pages = Array.from({ length: 6 }, (_, i) => record(file, start + i * 9950, 10));
      pages.push(record(file, start + 6 * 9950, 3));
      expect(await sendPlays(svc, device, pages)).toMatchObject({ accepted: 7, refused: 0 });
      total = await soldTotal(seller, t0, now());
    });
    expect(total.plays).toBe(6);
    expect(total.seconds).toBeCloseTo(10 + 5 * 9.95 + 2.95, 3);
  });

  it('refuses records starting in the future beyond the clock skew its heartbeats show, by seconds', async () => {
    const t0 = Date.now() - 2 * HOUR;
    await onClock(svc, t0, async () => {
      const { device, file } = await licensedDisplay(t0);
      clockAt(t0 + HOUR);
      // the display's clock agrees with the server's
      expect((await heartbeat(device, { sentAt: new Date(now()).toISOString() })).status).toBe(200);
      const future = [10, 30, 80].map((s) => record(file, now() + s * 1000, 5));
      const past = record(file, now() - 60_000, 10);
      const verdict = await sendPlays(svc, device, [...future, past]);
      console.log(`[figures] records starting 10, 30, 80 s ahead: ${JSON.stringify(verdict)}`);
      expect(verdict).toMatchObject({ accepted: 1, refused: 3, refusedByReason: { 'ends-in-future': 3 } });
    });
  });

  it('allows a display whose heartbeats show its clock 40 s ahead its records up to that far ahead, no more', async () => {
    const t0 = Date.now() - 2 * HOUR;
    await onClock(svc, t0, async () => {
      const { device, file } = await licensedDisplay(t0);
      clockAt(t0 + HOUR);
      expect((await heartbeat(device, { sentAt: new Date(now() + 40_000).toISOString() })).status).toBe(200);
      // made on its clock: ended 2 s ago by it (38 s ahead of the server), and one 80 s ahead
      const verdict = await sendPlays(svc, device, [record(file, now() + 28_000, 10), record(file, now() + 80_000, 5)]);
      expect(verdict).toMatchObject({ accepted: 1, refused: 1, refusedByReason: { 'ends-in-future': 1 } });
    });
  });
});

describe("a display's clock does not date its screen's states", () => {
  it('refuses a shown report dated 1970, 0001 or 9999 with REPORTED_TIME_INVALID and stores nothing', async () => {
    const owner = member();
    const file = await facts.file(owner.userId, 1, Date.now() - HOUR);
    const device = await displayGiven(svc, owner, file);
    for (const shownAt of ['1970-01-01T00:00:00.000Z', '0001-01-01T00:00:00.000Z', '9999-12-31T23:59:59.000Z']) {
      const res = await heartbeat(device, {
        shows: { kind: 'page', fileId: file, page: 1, shownAt, holdSeconds: 10, loaded: false, error: 'load-failed' },
      });
      expect([res.status, res.body.code]).toEqual([400, 'REPORTED_TIME_INVALID']);
    }
    expect(await svc.server.context.data.statuses.get(device.screenId)).toBeNull();
  });

  it('a broken page reported as shown days ago is broken since the server heard it: no incident before the threshold', async () => {
    const owner = member();
    const file = await facts.file(owner.userId, 1, Date.now() - HOUR);
    const device = await displayGiven(svc, owner, file);
    const t0 = Date.now() + HOUR;
    await onClock(svc, t0, async () => {
      const shownAt = new Date(t0 - 3 * 24 * HOUR).toISOString();
      const res = await heartbeat(device, {
        shows: { kind: 'page', fileId: file, page: 1, shownAt, holdSeconds: 10, loaded: false, error: 'load-failed' },
      });
      expect(res.status).toBe(200);
      await sweepIncidents(svc.server.context);
      const incidents = await call(svc, owner, 'GET', `/api/screens/${device.screenId}/incidents`);
      expect(incidents.body).toEqual([]);
      const health = await call(svc, owner, 'GET', '/api/screens/health?state=broken');
      const mine = (
        health.body.items as Array<{ screenId: string; since: string; lastImageError: { at: string } }>
      ).find((s) => s.screenId === device.screenId);
      expect(Date.parse(mine?.since ?? '')).toBeGreaterThanOrEqual(t0 - 1000);
      expect(Date.parse(mine?.lastImageError.at ?? '')).toBeGreaterThanOrEqual(t0 - 1000);
    });
  });
});

describe("the agenda's start", () => {
  it('refuses a from out of range with AGENDA_FROM_OUT_OF_RANGE, never a to in year 10000', async () => {
    const owner = member();
    const file = await facts.file(owner.userId, 1, Date.now() - HOUR);
    const device = await displayGiven(svc, owner, file);
    const group = await call(svc, owner, 'POST', '/api/screens/groups', { name: 'Hall', screenIds: [device.screenId] });
    for (const from of ['9999-12-31T23:59:59Z', '0001-01-01T00:00:00Z', '1970-01-01T00:00:00Z']) {
      const res = await call(svc, owner, 'GET', `/api/screens/${device.screenId}/agenda?from=${from}`);
      expect([res.status, res.body.code], from).toEqual([400, 'AGENDA_FROM_OUT_OF_RANGE']);
      const ofGroup = await call(svc, owner, 'GET', `/api/screens/groups/${group.body.id}/agenda?from=${from}`);
      expect([ofGroup.status, ofGroup.body.code], from).toEqual([400, 'AGENDA_FROM_OUT_OF_RANGE']);
    }
    const fine = await call(
      svc,
      owner,
      'GET',
      `/api/screens/${device.screenId}/agenda?from=${new Date().toISOString()}`,
    );
    expect(fine.status).toBe(200);
  });
});
