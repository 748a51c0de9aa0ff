// Compaction against the real service: records past the retention become sealed rollups with the same counts and
// seconds (the owner's and seller's reports read the same before and after), a count and a checksum prove what was
// folded, records inside the retention stay raw, and a crash mid-compaction (after sealing, or in the middle of the
// deletion) leaves the rollups and the raw records whole; the next run finishes it.
import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backfillRollups, compactPlays } from '../src/use-cases/compact-plays';
import { announcer, call, type Device, displayGiven, eventsHandled, member, sendPlays, useService } from './helpers';

const DAY = 86_400_000;
const MIN = 60_000;
const RETENTION_DAYS = 33;

const svc = useService({ PLAY_RETENTION_DAYS: String(RETENTION_DAYS), COMPACTION_MS: '0' });

const clockAt = (ms: number) => {
  svc.clock.offsetMs = ms - Date.now();
};
const tokyoDay = (ms: number) => new Date(ms).toLocaleDateString('en-CA', { timeZone: 'Asia/Tokyo' });
const record = (fileId: string, start: number, seconds = 10, page = 1) => ({
  id: randomUUID(),
  fileId,
  page,
  startedAt: new Date(start).toISOString(),
  seconds,
});
type Row = { plays: number; seconds: number };
const totals = (rows: Row[]) => ({
  plays: rows.reduce((n, r) => n + r.plays, 0),
  seconds: Math.round(rows.reduce((n, r) => n + r.seconds, 0) * 1000) / 1000,
});

/** A display given a file (and one it was not given), that played on `day0` (long ago) and today. */
async function history(owner: { userId: string }, seller: { userId: string }, day0: number) {
  const facts = announcer(svc);
  clockAt(day0 - 2 * 3_600_000);
  const own = await facts.file(owner.userId, 2, day0 - 3 * 3_600_000);
  const sold = await facts.file(seller.userId, 1, day0 - 3 * 3_600_000);
  await facts.purchase(owner.userId, sold, seller.userId, day0 - 3 * 3_600_000, Date.now() + 400 * DAY);
  await eventsHandled(svc);
  const playlist = await facts.playlist(owner.userId, [own, sold], day0 - 3 * 3_600_000);
  await eventsHandled(svc);
  const device: Device = await displayGiven(svc, owner, own);
  await call(svc, owner, 'PUT', `/api/screens/${device.screenId}`, {
    assignment: { kind: 'playlist', playlistId: playlist },
  });
  const old = [
    ...Array.from({ length: 6 }, (_, i) => record(own, day0 + i * 20_000, 10, 1 + (i % 2))),
    ...Array.from({ length: 4 }, (_, i) => record(sold, day0 + 200_000 + i * 20_000, 10)),
    record(randomUUID(), day0 + 400_000, 7), // a file it was never given: refused
  ];
  clockAt(day0 + 30 * MIN);
  const verdicts = await sendPlays(svc, device, old);
  expect(verdicts).toMatchObject({ accepted: 10, refused: 1 });
  clockAt(Date.now());
  svc.clock.offsetMs = 0;
  const recent = [record(own, Date.now() - 10 * MIN, 10), record(own, Date.now() - 9 * MIN, 10)];
  expect(await sendPlays(svc, device, recent)).toMatchObject({ accepted: 2 });
  return { device, own, sold, old, recent };
}

async function reports(owner: { userId: string }, seller: { userId: string }, day: string) {
  const q = `from=${day}&to=${day}`;
  const [counted, refused, sold] = await Promise.all([
    call(svc, owner, 'GET', `/api/screens/plays?${q}`),
    call(svc, owner, 'GET', `/api/screens/plays/refused?${q}`),
    call(svc, seller, 'GET', `/api/screens/plays/sold?${q}`),
  ]);
  return { counted: counted.body, refused: refused.body, sold: sold.body };
}

const rawOf = async (ids: string[]) => {
  const db = svc.server.context.conn;
  const [counted, refused] = await Promise.all([
    db.collection('plays').countDocuments({ _id: { $in: ids } } as never),
    db.collection('play_refusals').countDocuments({ _id: { $in: ids } } as never),
  ]);
  return counted + refused;
};

describe('compaction of play records past their retention', () => {
  it('folds them into sealed rollups with equal counts and seconds; a crash after sealing leaves both whole and a rerun finishes', async () => {
    const owner = member();
    const seller = member();
    const day0 = Date.now() - (RETENTION_DAYS + 5) * DAY;
    const { old, recent, own } = await history(owner, seller, day0);
    const day = tokyoDay(day0);
    const before = await reports(owner, seller, day);
    expect(totals(before.counted as unknown as Row[])).toEqual({ plays: 10, seconds: 100 });
    expect(before.sold).toEqual([{ day, fileId: expect.any(String), plays: 4, seconds: 40 }]);
    expect(before.refused).toMatchObject([{ day, reason: 'not-assigned', records: 1, seconds: 7 }]);
    // the stored rollups are replaced by a fold of the raw records: tamper with one to see it corrected
    const rollups = svc.server.context.conn.collection('play_rollups');
    await rollups.updateOne({ _id: `owner:${owner.userId}:${day}` } as never, { $set: { rows: [] } });

    // the process dies once the day's rollups are sealed, before any raw record is deleted
    await expect(
      compactPlays(svc.server.context, {
        crash: (point) => {
          if (point === 'after-seal') throw new Error('killed after sealing');
        },
      }),
    ).rejects.toThrow('killed after sealing');
    expect(await rawOf(old.map((r) => r.id))).toBe(old.length);
    expect(await reports(owner, seller, day)).toEqual(before);
    const marker = await svc.server.context.conn.collection('play_compactions').findOne({ _id: day } as never);
    expect(marker).toMatchObject({ records: 10, refused: 1, seconds: 100, doneAt: null });
    const ids = old.map((r) => r.id).sort();
    expect(marker?.checksum).toBe(createHash('sha256').update(ids.join('\n')).digest('hex'));

    // the next run finishes it: raw records of the day gone, the reports unchanged, the recent records kept raw
    const done = await compactPlays(svc.server.context);
    expect(done.days).toContain(day);
    expect(await rawOf(old.map((r) => r.id))).toBe(0);
    expect(await rawOf(recent.map((r) => r.id))).toBe(recent.length);
    expect(await reports(owner, seller, day)).toEqual(before);
    const sealed = await rollups.findOne({ _id: `owner:${owner.userId}:${day}` } as never);
    expect(sealed?.sealed).toMatchObject({ records: 10, seconds: 100 });
    expect(
      (await svc.server.context.conn.collection('play_compactions').findOne({ _id: day } as never))?.doneAt,
    ).toBeInstanceOf(Date);
    // a proof over the day names the seal in place of the verdicts compaction removed
    const utc = new Date(day0).toISOString().slice(0, 10);
    const proof = await call(svc, owner, 'GET', `/api/screens/plays/proof?fileId=${own}&from=${utc}&to=${utc}`);
    expect(proof.status).toBe(200);
    expect(proof.body.compacted).toEqual([
      {
        day,
        plays: 6,
        seconds: 60,
        rollup: { records: 10, seconds: 100, checksum: expect.stringMatching(/^[0-9a-f]{64}$/) },
      },
    ]);
    // and again: nothing left to do
    expect((await compactPlays(svc.server.context)).days).not.toContain(day);
  });

  it('a crash in the middle of the deletion leaves the sealed rollups whole; the rerun deletes the rest without folding it again', async () => {
    const owner = member();
    const seller = member();
    const day0 = Date.now() - (RETENTION_DAYS + 3) * DAY;
    const { old } = await history(owner, seller, day0);
    const day = tokyoDay(day0);
    const before = await reports(owner, seller, day);
    await expect(
      compactPlays(svc.server.context, {
        crash: (point) => {
          if (point === 'after-seal') throw new Error('killed after sealing');
        },
      }),
    ).rejects.toThrow();
    // half the day's raw records deleted when the process died
    const half = old.slice(0, 5).map((r) => r.id);
    await svc.server.context.conn.collection('plays').deleteMany({ _id: { $in: half } } as never);
    expect(await reports(owner, seller, day)).toEqual(before);
    await compactPlays(svc.server.context);
    expect(await rawOf(old.map((r) => r.id))).toBe(0);
    expect(await reports(owner, seller, day)).toEqual(before);
  });

  it('a day whose raw records are not the ones sealed (an id more) is left alone and reported', async () => {
    const owner = member();
    const seller = member();
    const day0 = Date.now() - (RETENTION_DAYS + 7) * DAY;
    const { old } = await history(owner, seller, day0);
    const day = tokyoDay(day0);
    await expect(
      compactPlays(svc.server.context, {
        crash: (point) => {
          if (point === 'after-seal') throw new Error('killed after sealing');
        },
      }),
    ).rejects.toThrow();
    const extra = await svc.server.context.conn.collection('plays').findOne({ _id: old[0]?.id } as never);
    await svc.server.context.conn.collection('plays').insertOne({ ...extra, _id: randomUUID() } as never);
    const again = await compactPlays(svc.server.context);
    expect(again.days).not.toContain(day);
    expect(await rawOf(old.map((r) => r.id))).toBe(old.length);
  });

  it('records stored before rollups existed are folded into them once, by the judge before it reads the stream', async () => {
    const owner = member();
    const screenId = randomUUID();
    const fileId = `file-${randomUUID()}`;
    const day = '2026-10-01';
    const doc = (seconds: number) => ({
      _id: randomUUID(),
      screenId,
      ownerId: owner.userId,
      fileId,
      page: 1,
      startedAt: new Date(`${day}T10:00:00Z`),
      day,
      receivedAt: new Date(`${day}T10:01:00Z`),
      seconds,
    });
    await svc.server.context.conn.collection('plays').insertMany([doc(10), doc(5), doc(2.5)] as never[]);
    const q = `from=${day}&to=${day}`;
    expect((await call(svc, owner, 'GET', `/api/screens/plays?${q}`)).body).toEqual([]);
    // the pass already ran when this service started (an empty database): run again as at an upgrade
    expect(await svc.server.context.data.migrations.get('play-rollups-v1')).not.toBeNull();
    await backfillRollups(svc.server.context, 0);
    expect((await call(svc, owner, 'GET', `/api/screens/plays?${q}`)).body).toEqual([
      { day, screenId, screenName: '', fileId, plays: 3, seconds: 17.5 },
    ]);
  });
});
