// Proof of play as evidence, against the real service (FerretDB, NATS): a record counts only when the
// screen was given the file, its owner owned or licensed it, the page exists, it does not overlap what the screen
// already played, and its time is plausible; refusals are counted per record and shown to the owner, never a seller.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { judgePlays } from '../src/use-cases/judge-plays';
import {
  announcer,
  assign as assignAs,
  type Caller,
  call,
  type Device,
  displayGiven,
  eventsHandled,
  member,
  onClock,
  pairDisplay,
  sendPlays,
  startReplica,
  useService,
  type TestService,
} from './helpers';

const svc = useService();
const facts = announcer(svc);

const MIN = 60_000;
const HOUR = 60 * MIN;
/** The service's clock: it runs on from the instant set. */
const clockAt = (ms: number) => {
  svc.clock.offsetMs = ms - Date.now();
};
const now = () => Date.now() + svc.clock.offsetMs;
const tokyoDay = (ms: number) => new Date(ms).toLocaleDateString('en-CA', { timeZone: 'Asia/Tokyo' });

const record = (fileId: string, start: number, seconds = 10, page = 1) => ({
  id: randomUUID(),
  fileId,
  page,
  startedAt: new Date(start).toISOString(),
  seconds,
});
const send = (device: Device, plays: unknown[]) => sendPlays(svc, device, plays);
const heartbeat = (device: Device) =>
  call(svc, { device }, 'POST', '/api/screens/device/heartbeat', {
    appVersion: '1',
    screenSize: { width: 1, height: 1 },
    nowPlaying: null,
  });
const assign = (owner: Caller, screenId: string, assignment: unknown) => assignAs(svc, owner, screenId, assignment);
/** A display of `owner` given a file of `pages` pages announced an hour before `t0`. */
const givenFile = async (owner: { userId: string }, pages: number, t0: number) => {
  const file = await facts.file(owner.userId, pages, t0 - HOUR);
  return { file, device: await displayGiven(svc, owner, file) };
};
const sold = async (seller: { userId: string }, from: number, to: number) =>
  (await call(svc, seller, 'GET', `/api/screens/plays/sold?from=${tokyoDay(from)}&to=${tokyoDay(to)}`)).body as Array<{
    plays: number;
  }>;
const counted = async (owner: { userId: string }, from: number, to: number) =>
  (await call(svc, owner, 'GET', `/api/screens/plays?from=${tokyoDay(from)}&to=${tokyoDay(to)}`)).body as Array<{
    plays: number;
    seconds: number;
  }>;

describe('a record counts only as evidence', () => {
  it("refuses 500 forged hour-long records of another seller's sold file from a screen given nothing", async () => {
    const seller = member();
    const buyer = member();
    const forger = member();
    const t0 = Date.now() - 10 * HOUR;
    await onClock(svc, t0, async () => {
      const file = await facts.file(seller.userId, 4, t0 - HOUR);
      await facts.purchase(buyer.userId, file, seller.userId, t0 - HOUR, t0 + 30 * 24 * HOUR);
      await eventsHandled(svc);
      const { device } = await pairDisplay(svc, forger);
      clockAt(t0 + 8 * HOUR);
      // the attack: 500 records of 3,600 s each, all starting within 5 s
      const plays = Array.from({ length: 500 }, (_, i) => record(file, t0 + HOUR + i * 10, 3600));
      expect(await send(device, plays)).toEqual({
        accepted: 0,
        duplicates: 0,
        refused: 500,
        refusedByReason: { 'not-assigned': 500 },
      });
      // sent again: each counts once, as a duplicate, never as a second refusal
      expect(await send(device, plays)).toEqual({ accepted: 0, duplicates: 500, refused: 0, refusedByReason: {} });
      // even given the file (PUT /api/screens/:id refuses it alone; a playlist of the forger's naming it is taken as
      // the forger's), the forger holds no licence for it
      const forgedList = await facts.playlist(forger.userId, [file], t0 + 8 * HOUR - MIN);
      await eventsHandled(svc);
      await assign(forger, device.screenId, { kind: 'playlist', playlistId: forgedList });
      clockAt(t0 + 9 * HOUR);
      expect(await send(device, [record(file, t0 + 8 * HOUR + 10 * MIN, 60)])).toEqual({
        accepted: 0,
        duplicates: 0,
        refused: 1,
        refusedByReason: { 'not-licensed': 1 },
      });
    });
    expect(await sold(seller, t0, Date.now())).toEqual([]);
    expect(await counted(forger, t0, Date.now())).toEqual([]);
  });

  it("refuses the owner's own file while the screen is not given it, and counts it once it is", async () => {
    const owner = member();
    const t0 = Date.now() - 2 * HOUR;
    await onClock(svc, t0, async () => {
      const mine = await facts.file(owner.userId, 2, t0 - HOUR);
      const other = await facts.file(owner.userId, 2, t0 - HOUR);
      await eventsHandled(svc);
      const { device } = await pairDisplay(svc, owner);
      clockAt(t0 + 10 * MIN);
      await assign(owner, device.screenId, { kind: 'file', fileId: other });
      clockAt(t0 + HOUR);
      const before = record(mine, t0 + 5 * MIN); // given nothing yet
      const unassigned = record(mine, t0 + 20 * MIN); // given another file
      const given = record(other, t0 + 30 * MIN);
      expect(await send(device, [before, unassigned, given])).toEqual({
        accepted: 1,
        duplicates: 0,
        refused: 2,
        refusedByReason: { 'not-assigned': 2 },
      });
    });
  });

  it('refuses a licensed file once its licence has ended, and before it was bought', async () => {
    const seller = member();
    const buyer = member();
    const t0 = Date.now() - 3 * 24 * HOUR;
    await onClock(svc, t0, async () => {
      const file = await facts.file(seller.userId, 3, t0 - HOUR);
      // bought at t0 + 1 h, the licence ended at t0 + 25 h; the screen is given it from t0 in a playlist of the buyer
      // (PUT /api/screens/:id refuses the file alone while no licence of it is live)
      await facts.purchase(buyer.userId, file, seller.userId, t0 + HOUR, t0 + 25 * HOUR);
      const list = await facts.playlist(buyer.userId, [file], t0 - HOUR);
      await eventsHandled(svc);
      const { device } = await pairDisplay(svc, buyer);
      await assign(buyer, device.screenId, { kind: 'playlist', playlistId: list });
      clockAt(t0 + 2 * 24 * HOUR);
      const early = record(file, t0 + 30 * MIN);
      const within = record(file, t0 + 24 * HOUR);
      const ended = record(file, t0 + 25 * HOUR + MIN);
      expect(await send(device, [early, within, ended])).toEqual({
        accepted: 1,
        duplicates: 0,
        refused: 2,
        refusedByReason: { 'not-licensed': 2 },
      });
    });
    expect((await sold(seller, t0, Date.now())).map((r) => r.plays)).toEqual([1]);
  });

  it('accepts at most the time that passed: 500 hour-long records starting within 5 s count once', async () => {
    const owner = member();
    const t0 = Date.now() - 5 * HOUR;
    await onClock(svc, t0, async () => {
      const { file, device } = await givenFile(owner, 1, t0);
      clockAt(t0 + 3 * HOUR);
      const plays = Array.from({ length: 500 }, (_, i) => record(file, t0 + MIN + i * 10, 3600));
      expect(await send(device, plays)).toEqual({
        accepted: 1,
        duplicates: 0,
        refused: 499,
        refusedByReason: { overlap: 499 },
      });
      // a later batch overlapping what counted is refused too; one right after it counts
      expect(await send(device, [record(file, t0 + 30 * MIN, 600), record(file, t0 + 61 * MIN, 600)])).toEqual({
        accepted: 1,
        duplicates: 0,
        refused: 1,
        refusedByReason: { overlap: 1 },
      });
    });
    const rows = await counted(owner, t0, Date.now());
    expect(rows.reduce((n, r) => n + r.plays, 0)).toBe(2);
    expect(rows.reduce((n, r) => n + r.seconds, 0)).toBeLessThanOrEqual((3 * HOUR) / 1000);
  });

  it('refuses pages that do not exist (0 and past the page count)', async () => {
    const owner = member();
    const t0 = Date.now() - HOUR;
    await onClock(svc, t0, async () => {
      const { file, device } = await givenFile(owner, 3, t0);
      clockAt(t0 + 30 * MIN);
      const pages = [0, 1, 3, 4].map((page, i) => record(file, t0 + MIN + i * 10_000, 10, page));
      expect(await send(device, pages)).toEqual({
        accepted: 2,
        duplicates: 0,
        refused: 2,
        refusedByReason: { 'no-such-page': 2 },
      });
    });
  });

  it('refuses records from before the screen was paired and records ending in the future', async () => {
    const owner = member();
    const t0 = Date.now() - 2 * HOUR;
    await onClock(svc, t0, async () => {
      const file = await facts.file(owner.userId, 1, t0 - 24 * HOUR);
      const device = await displayGiven(svc, owner, file);
      clockAt(t0 + HOUR);
      expect(await send(device, [record(file, t0 - 10 * MIN), record(file, now() - MIN, 10 * 60)])).toEqual({
        accepted: 0,
        duplicates: 0,
        refused: 2,
        refusedByReason: { 'before-pairing': 1, 'ends-in-future': 1 },
      });
    });
  });

  it('follows playlists over time, and schedules take any of their playlists', async () => {
    const owner = member();
    const t0 = Date.now() - 4 * HOUR;
    await onClock(svc, t0, async () => {
      const [a, b, c] = await Promise.all([1, 2, 3].map(() => facts.file(owner.userId, 1, t0 - HOUR)));
      const list = await facts.playlist(owner.userId, [a as string], t0 - 30 * MIN);
      const night = await facts.playlist(owner.userId, [c as string], t0 - 30 * MIN);
      await eventsHandled(svc);
      // paired earlier and never heard of since: one long offline gap, whose start had nothing to play
      clockAt(t0 - 5 * MIN);
      const { device } = await pairDisplay(svc, owner);
      clockAt(t0);
      await assign(owner, device.screenId, {
        kind: 'schedule',
        schedule: {
          parts: [{ days: [0, 1, 2, 3, 4, 5, 6], start: '22:00', end: '23:00', playlistId: night }],
          defaultPlaylistId: list,
        },
      });
      // the playlist gains b and loses a an hour later
      await facts.playlist(owner.userId, [b as string], t0 + HOUR, list);
      await eventsHandled(svc);
      clockAt(t0 + 3 * HOUR);
      const verdicts = await send(device, [
        record(a as string, t0 + 10 * MIN),
        record(c as string, t0 + 20 * MIN), // the day part's playlist, whatever the hour
        record(b as string, t0 + 30 * MIN), // not yet in the playlist
        record(a as string, t0 + 2 * HOUR), // gone from it an hour before
        record(b as string, t0 + 2 * HOUR + MIN),
      ]);
      expect(verdicts).toEqual({ accepted: 3, duplicates: 0, refused: 2, refusedByReason: { 'not-assigned': 2 } });
    });
  });
});

describe('an honest display that was offline', () => {
  for (const first of ['heartbeat', 'batch'] as const) {
    it(`has its late backlog of the old content accepted, not what it played of it after coming back (${first} first)`, async () => {
      const owner = member();
      const t0 = Date.now() - 8 * HOUR;
      await onClock(svc, t0, async () => {
        const old = await facts.file(owner.userId, 2, t0 - HOUR);
        const next = await facts.file(owner.userId, 2, t0 - HOUR);
        const device = await displayGiven(svc, owner, old);
        clockAt(t0 + MIN);
        expect((await heartbeat(device)).status).toBe(200); // its last contact before the network went
        clockAt(t0 + 2 * HOUR);
        await assign(owner, device.screenId, { kind: 'file', fileId: next }); // while it is offline
        const back = t0 + 5 * HOUR;
        clockAt(back);
        const backlog = [
          record(old, t0 + 30 * MIN),
          record(old, t0 + 3 * HOUR), // after the change: it could not know
          record(old, back - MIN),
        ];
        if (first === 'heartbeat') expect((await heartbeat(device)).status).toBe(200);
        expect(await send(device, backlog)).toEqual({ accepted: 3, duplicates: 0, refused: 0, refusedByReason: {} });
        // online again: a heartbeat every 15 s
        for (let beat = 1; beat <= 28; beat++) {
          clockAt(back + beat * 15_000);
          expect((await heartbeat(device)).status).toBe(200);
        }
        const after = [record(old, back + 5 * MIN), record(next, back + 6 * MIN)];
        expect(await send(device, after)).toEqual({
          accepted: 1,
          duplicates: 0,
          refused: 1,
          refusedByReason: { 'not-assigned': 1 },
        });
      });
    });
  }

  it('an online display gets no such leeway: old content after a change is refused', async () => {
    const owner = member();
    const t0 = Date.now() - 3 * HOUR;
    await onClock(svc, t0, async () => {
      const old = await facts.file(owner.userId, 1, t0 - HOUR);
      const next = await facts.file(owner.userId, 1, t0 - HOUR);
      const device = await displayGiven(svc, owner, old);
      // a heartbeat every 15 s for 22 minutes; the owner changes what it plays at 10 minutes
      for (let beat = 1; beat <= 88; beat++) {
        clockAt(t0 + beat * 15_000);
        expect((await heartbeat(device)).status).toBe(200);
        if (beat === 40) await assign(owner, device.screenId, { kind: 'file', fileId: next });
      }
      expect(
        await send(device, [
          record(old, t0 + 10 * MIN + 30_000),
          record(old, t0 + 20 * MIN),
          record(next, t0 + 21 * MIN),
        ]),
      ).toEqual({ accepted: 2, duplicates: 0, refused: 1, refusedByReason: { 'not-assigned': 1 } });
    });
  });
});

describe('who sees refusals', () => {
  it('the owner sees refused records per day, screen and reason; the seller counts only accepted plays', async () => {
    const seller = member();
    const buyer = member();
    const t0 = Date.now() - 6 * HOUR;
    let greedyScreen = '';
    await onClock(svc, t0, async () => {
      const file = await facts.file(seller.userId, 2, t0 - HOUR);
      await facts.purchase(buyer.userId, file, seller.userId, t0 - HOUR, t0 + 30 * 24 * HOUR);
      await eventsHandled(svc);
      const honest = await pairDisplay(svc, buyer, 'Honest');
      const greedy = await pairDisplay(svc, buyer, 'Greedy');
      greedyScreen = greedy.screenId;
      await assign(buyer, honest.screenId, { kind: 'file', fileId: file });
      clockAt(t0 + 4 * HOUR);
      expect(await send(honest.device, [record(file, t0 + HOUR), record(file, t0 + HOUR + 10_000)])).toMatchObject({
        accepted: 2,
      });
      const forged = [
        record(file, t0 + HOUR, 3600), // the greedy screen was given nothing
        record(file, t0 + HOUR + 1000, 3600),
        record(file, t0 + 2 * HOUR, 60, 9),
      ];
      expect(await send(greedy.device, forged)).toMatchObject({ accepted: 0, refused: 3 });
      await assign(buyer, greedy.screenId, { kind: 'file', fileId: file });
      clockAt(t0 + 5 * HOUR);
      expect(await send(greedy.device, [record(file, t0 + 4 * HOUR + MIN, 30, 5)])).toMatchObject({
        refusedByReason: { 'no-such-page': 1 },
      });
    });
    const from = tokyoDay(t0);
    const to = tokyoDay(Date.now());
    const refused = await call(svc, buyer, 'GET', `/api/screens/plays/refused?from=${from}&to=${to}`);
    expect(refused.status).toBe(200);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    // what was refused, summed per (Tokyo) day and reason
    const expected = new Map<string, { day: string; reason: string; records: number; seconds: number }>();
    for (const [start, reason, seconds] of [
      [t0 + HOUR, 'not-assigned', 3600],
      [t0 + HOUR + 1000, 'not-assigned', 3600],
      [t0 + 2 * HOUR, 'not-assigned', 60],
      [t0 + 4 * HOUR + MIN, 'no-such-page', 30],
    ] as const) {
      const day = tokyoDay(start);
      const row = expected.get(`${day} ${reason}`) ?? { day, reason, records: 0, seconds: 0 };
      row.records++;
      row.seconds += seconds;
      expected.set(`${day} ${reason}`, row);
    }
    expect(refused.body).toEqual(
      [...expected.values()]
        .sort((a, b) => a.day.localeCompare(b.day) || a.reason.localeCompare(b.reason))
        .map((r) => ({ ...r, screenId: greedyScreen, screenName: 'Greedy' })),
    );
    const day = tokyoDay(t0 + HOUR);
    // only the owner: another member sees none, the seller neither, and a seller's counts hold the accepted plays only
    expect((await call(svc, seller, 'GET', `/api/screens/plays/refused?from=${day}&to=${day}`)).body).toEqual([]);
    expect((await sold(seller, t0, Date.now())).reduce((n, r) => n + r.plays, 0)).toBe(2);
    const bad = await call(svc, buyer, 'GET', '/api/screens/plays/refused?from=2026-11-22&to=2026-11-21');
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION']);
    expect((await call(svc, null, 'GET', `/api/screens/plays/refused?from=${day}&to=${day}`)).status).toBe(401);
  });
});

describe('order and instances', () => {
  it('a resend, or a batch whose records were lost after the set was written, is never an overlap with itself', async () => {
    const owner = member();
    const t0 = Date.now() - 2 * HOUR;
    await onClock(svc, t0, async () => {
      const { file, device } = await givenFile(owner, 1, t0);
      clockAt(t0 + HOUR);
      const batch = [record(file, t0 + MIN, 60), record(file, t0 + 2 * MIN, 60)];
      expect(await send(device, batch)).toMatchObject({ accepted: 2, refused: 0 });
      // the batch's messages as the judge read them (a judge that died before its checkpoint reads them again)
      const { intake } = svc.server.context.data;
      const { last } = await intake.bounds();
      const messages = await Promise.all(
        [last - 1, last].map(async (seq) => {
          const m = await svc.server.context.nats.jsm.streams.getMessage(intake.stream, { seq });
          return intake.decode(seq, m?.data as Uint8Array);
        }),
      );
      expect(messages.map((m) => m.play.id)).toEqual(batch.map((r) => r.id));
      // the judge "died" after the claim (records gone, the set written): judged again, they count as judged, once
      const plays = svc.server.context.conn.collection('plays');
      await plays.deleteMany({ _id: { $in: batch.map((r) => r.id) } as never });
      expect(await judgePlays(svc.server.context, messages, last - 2)).toEqual({
        counted: 2,
        refused: 0,
        duplicates: 0,
      });
      const day = tokyoDay(t0 + MIN);
      const report = await call(svc, owner, 'GET', `/api/screens/plays?from=${day}&to=${day}`);
      expect((report.body as unknown as Array<{ plays: number }>).reduce((n, r) => n + r.plays, 0)).toBe(2);
      // sent again by the display inside the stream's duplicate window: dropped there, nothing judged
      expect(await send(device, batch)).toEqual({ accepted: 0, duplicates: 2, refused: 0, refusedByReason: {} });
      // the set lost them (an older service wrote the records, not the set): judged again (a resend past the
      // duplicate window), they are duplicates and put them back
      const { conn } = svc.server.context;
      await conn.collection('screen_play_ledgers').deleteMany({ screenId: device.screenId } as never);
      await conn.collection('screen_play_ledger_heads').deleteMany({ _id: device.screenId } as never);
      const fresh = await startReplica(svc);
      try {
        expect(await judgePlays(fresh.server.context, messages, last)).toEqual({
          counted: 0,
          refused: 0,
          duplicates: 2,
        });
        expect(await sendPlays(fresh, device, [record(file, t0 + MIN + 30_000, 60)])).toEqual({
          accepted: 0,
          duplicates: 0,
          refused: 1,
          refusedByReason: { overlap: 1 },
        });
      } finally {
        await fresh.close();
      }
    });
  });

  it('a judge that died with its rollups unwritten: the next one adds its stored records to them once', async () => {
    const owner = member();
    const t0 = Date.now() - 2 * HOUR;
    await onClock(svc, t0, async () => {
      const { file, device } = await givenFile(owner, 1, t0);
      clockAt(t0 + HOUR);
      const batch = [record(file, t0 + MIN, 60), record(file, t0 + 2 * MIN, 60)];
      expect(await send(device, batch)).toMatchObject({ accepted: 2, refused: 0 });
      const { intake } = svc.server.context.data;
      const { last } = await intake.bounds();
      const messages = await Promise.all(
        [last - 1, last].map(async (seq) => {
          const m = await svc.server.context.nats.jsm.streams.getMessage(intake.stream, { seq });
          return intake.decode(seq, m?.data as Uint8Array);
        }),
      );
      expect(messages.map((m) => m.play.id)).toEqual(batch.map((r) => r.id));
      const day = tokyoDay(t0 + MIN);
      const total = async (via: TestService) =>
        (
          (await call(via, owner, 'GET', `/api/screens/plays?from=${day}&to=${day}`)).body as unknown as Array<{
            plays: number;
          }>
        ).reduce((n, r) => n + r.plays, 0);
      expect(await total(svc)).toBe(2);
      // the judge "died" after storing the records and before writing the rollups: they hold nothing of them
      const rollups = svc.server.context.conn.collection('play_rollups');
      await rollups.deleteMany({ _id: { $in: [`owner:${owner.userId}:${day}`, `file:${file}:${day}`] } } as never);
      expect(await total(svc)).toBe(0);
      // (an instance that judges only here: no judge of its own discards what it holds meanwhile)
      const next = await startReplica(svc, { PLAY_JUDGE: '0' });
      try {
        const ctx = next.server.context;
        // judged again from the checkpoint before: stored, so nothing new, but the rollups get them (seen at once
        // by the judge's instance, by the others once written)
        expect(await judgePlays(ctx, messages, last - 2)).toEqual({ counted: 0, refused: 0, duplicates: 2 });
        expect(await total(next)).toBe(2);
        await ctx.data.rollups.flush();
        expect(await total(svc)).toBe(2);
        // judged a third time, and a resend past the duplicate window (a later sequence): nothing added
        expect(await judgePlays(ctx, messages, last - 2)).toMatchObject({ counted: 0, duplicates: 2 });
        const resend = messages.map((m, i) => ({ ...m, seq: last + 1000 + i }));
        expect(await judgePlays(ctx, resend, last)).toMatchObject({ counted: 0, duplicates: 2 });
        await ctx.data.rollups.flush();
        ctx.data.rollups.discard();
        expect(await total(next)).toBe(2);
        expect(await total(svc)).toBe(2);
      } finally {
        await next.close();
      }
    });
  });

  it('a batch judged on what another instance has since overtaken is judged again (compare-and-set)', async () => {
    const owner = member();
    const t0 = Date.now() - 2 * HOUR;
    await onClock(svc, t0, async () => {
      const other = await startReplica(svc);
      try {
        const file = await facts.file(owner.userId, 1, t0 - HOUR);
        await eventsHandled(svc);
        await eventsHandled(other);
        const { device } = await pairDisplay(svc, owner);
        await assign(owner, device.screenId, { kind: 'file', fileId: file });
        clockAt(t0 + HOUR);
        other.clock.offsetMs = svc.clock.offsetMs;
        // each instance knows the screen's ledger from a batch of its own
        expect(await send(device, [record(file, t0 + MIN, 60)])).toMatchObject({ accepted: 1 });
        const viaOther = (plays: unknown[]) => sendPlays(other, device, plays);
        expect(await viaOther([record(file, t0 + 3 * MIN, 60)])).toMatchObject({ accepted: 1 });
        // this instance writes next; the other one's memory of the ledger is now old
        expect(await send(device, [record(file, t0 + 10 * MIN, 60)])).toMatchObject({ accepted: 1 });
        expect(await viaOther([record(file, t0 + 10 * MIN + 20_000, 60)])).toEqual({
          accepted: 0,
          duplicates: 0,
          refused: 1,
          refusedByReason: { overlap: 1 },
        });
      } finally {
        await other.close();
      }
    });
  });
  it('a replica that never saw the screen finds its newest ledger after many batches (old versions gone)', async () => {
    const owner = member();
    const t0 = Date.now() - 3 * HOUR;
    await onClock(svc, t0, async () => {
      const { file, device } = await givenFile(owner, 1, t0);
      clockAt(t0 + 2 * HOUR);
      // 40 batches: 40 versions of the ledger; the head moves at 16 and 32, and the versions before them go
      for (let i = 0; i < 40; i++) {
        expect(await send(device, [record(file, t0 + MIN + i * 20_000, 10)])).toMatchObject({ accepted: 1 });
      }
      const versions = svc.server.context.conn.collection('screen_play_ledgers');
      while ((await versions.countDocuments({ _id: `${device.screenId}#20` } as never)) > 0) {
        await new Promise((r) => setTimeout(r, 20));
      }
      const other = await startReplica(svc);
      try {
        const viaOther = (plays: unknown[]) => sendPlays(other, device, plays);
        // it knows the first and the last records' times: an overlap with either is refused, the time after counts
        expect(await viaOther([record(file, t0 + MIN + 5000, 10)])).toMatchObject({
          refusedByReason: { overlap: 1 },
        });
        expect(await viaOther([record(file, t0 + MIN + 39 * 20_000 + 5000, 10)])).toMatchObject({
          refusedByReason: { overlap: 1 },
        });
        expect(await viaOther([record(file, t0 + MIN + 40 * 20_000, 10)])).toMatchObject({ accepted: 1 });
      } finally {
        await other.close();
      }
      expect(await send(device, [record(file, t0 + MIN + 40 * 20_000 + 5000, 10)])).toMatchObject({
        refusedByReason: { overlap: 1 },
      });
    });
  });
});
