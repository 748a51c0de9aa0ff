// The play intake's batch path against the real service (FerretDB, NATS): a display's batch goes into the intake
// stream all at once, its answer comes once every record is stored there, a resend counts nothing twice, a stream
// refusing part of a batch answers an error (the display keeps its records) and the resend then counts each record
// once, and batches beyond the bound on records awaiting their acknowledgement wait for room.
import { randomUUID } from 'node:crypto';
import { DiscardPolicy } from '@nats-io/jetstream';
import { describe, expect, it } from 'vitest';
import {
  announcer,
  call,
  type Device,
  displayGiven,
  member,
  onClock,
  playsJudged,
  startService,
  type TestService,
  useService,
} from './helpers';

const svc = useService();

const MIN = 60_000;
const HOUR = 60 * MIN;
const tokyoDay = (ms: number) => new Date(ms).toLocaleDateString('en-CA', { timeZone: 'Asia/Tokyo' });
/** `n` records of 10 s one after another from `from`, pages 1-4 in turn */
const records = (fileId: string, from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    fileId,
    page: (i % 4) + 1,
    startedAt: new Date(from + i * 10_000).toISOString(),
    seconds: 10,
  }));

/** The stream's last sequence: it moves only when the stream stores a message. */
const lastSeq = async (s: TestService) => {
  const { intake } = s.server.context.data;
  return (await intake.bounds()).last;
};
/** The batch as the display posts it: the service's own answer (what the stream took), not the judge's. */
const post = (s: TestService, device: Device, plays: unknown[]) =>
  call(s, { device }, 'POST', '/api/screens/device/plays', { plays });
const storedOnce = async (s: TestService, ids: string[]) => {
  const plays = s.server.context.conn.collection('plays');
  const found = await plays.find({ _id: { $in: ids } as never }, { projection: { _id: 1 } }).toArray();
  return found.length;
};
/** The owner's report over the days of [from, from + 3 h] (a batch may cross a day's end in Tokyo). */
const report = async (s: TestService, owner: { userId: string }, from: number) => {
  const [a, b] = [tokyoDay(from), tokyoDay(from + 3 * HOUR)];
  const rows = (await call(s, owner, 'GET', `/api/screens/plays?from=${a}&to=${b}`)).body as unknown as Array<{
    plays: number;
    seconds: number;
  }>;
  return { plays: rows.reduce((n, r) => n + r.plays, 0), seconds: rows.reduce((n, r) => n + r.seconds, 0) };
};

/** A display of a new owner given a 4-page file announced an hour before `t0`. */
async function displayAt(s: TestService, t0: number) {
  const owner = member();
  const file = await announcer(s).file(owner.userId, 4, t0 - HOUR);
  const device = await displayGiven(s, owner, file);
  return { owner, file, device };
}

describe('play batches into the intake stream', () => {
  it('a batch of 500 records is answered once all 500 are in the stream, and each is stored and counted once', async () => {
    const t0 = Date.now() - 10 * HOUR;
    await onClock(svc, t0, async () => {
      const { owner, file, device } = await displayAt(svc, t0);
      const batch = records(file, t0 + MIN, 500);
      svc.clock.offsetMs = t0 + 3 * HOUR - Date.now();
      const before = await lastSeq(svc);
      const res = await post(svc, device, batch);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ accepted: 500, duplicates: 0, refused: 0, refusedByReason: {} });
      // answered: every record is stored in the stream already
      expect((await lastSeq(svc)) - before).toBe(500);
      await playsJudged(svc);
      expect(
        await storedOnce(
          svc,
          batch.map((r) => r.id),
        ),
      ).toBe(500);
      expect(await report(svc, owner, t0 + MIN)).toEqual({ plays: 500, seconds: 5000 });
    });
  });

  it('a batch sent again counts nothing twice, and a resend with new records adds only those', async () => {
    const t0 = Date.now() - 9 * HOUR;
    await onClock(svc, t0, async () => {
      const { owner, file, device } = await displayAt(svc, t0);
      const batch = records(file, t0 + MIN, 60);
      svc.clock.offsetMs = t0 + 2 * HOUR - Date.now();
      const first = await post(svc, device, batch.slice(0, 50));
      expect(first.body).toMatchObject({ accepted: 50, duplicates: 0 });
      await playsJudged(svc);
      const before = await lastSeq(svc);
      // the answer was lost: the display sends the same batch again, then with its next records
      const again = await post(svc, device, batch.slice(0, 50));
      expect(again.body).toMatchObject({ accepted: 0, duplicates: 50 });
      const more = await post(svc, device, batch);
      expect(more.body).toMatchObject({ accepted: 10, duplicates: 50 });
      expect((await lastSeq(svc)) - before).toBe(10);
      await playsJudged(svc);
      expect(
        await storedOnce(
          svc,
          batch.map((r) => r.id),
        ),
      ).toBe(60);
      expect(await report(svc, owner, t0 + MIN)).toEqual({ plays: 60, seconds: 600 });
    });
  });

  it('the stream refusing part of a batch answers 503; the resend stores the rest, and nothing counts twice', async () => {
    // a service of its own: its stream holds only this test's records, so a limit of 4 refuses this batch's fifth
    const own = await startService();
    try {
      const t0 = Date.now() - 8 * HOUR;
      await onClock(own, t0, async () => {
        const { owner, file, device } = await displayAt(own, t0);
        const { intake } = own.server.context.data;
        await intake.ensure();
        const { jsm } = own.server.context.nats;
        await jsm.streams.update(intake.stream, { max_msgs: 4, discard: DiscardPolicy.New });
        const batch = records(file, t0 + MIN, 10);
        own.clock.offsetMs = t0 + 2 * HOUR - Date.now();
        const refused = await post(own, device, batch);
        expect(refused.status).toBe(503);
        expect(refused.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
        // the stream took the first four: they are judged and counted (the display does not know which)
        expect(await lastSeq(own)).toBe(4);
        await playsJudged(own);
        expect(
          await storedOnce(
            own,
            batch.map((r) => r.id),
          ),
        ).toBe(4);
        // room again; the display sends its whole queue again
        await jsm.streams.update(intake.stream, { max_msgs: -1, discard: DiscardPolicy.Old });
        const resent = await post(own, device, batch);
        expect(resent.status).toBe(200);
        expect(resent.body).toMatchObject({ accepted: 6, duplicates: 4 });
        await playsJudged(own);
        expect(
          await storedOnce(
            own,
            batch.map((r) => r.id),
          ),
        ).toBe(10);
        expect(await report(own, owner, t0 + MIN)).toEqual({ plays: 10, seconds: 100 });
      });
    } finally {
      await own.close();
    }
  });

  it('many displays at once: batches beyond the bound wait for room, and every record is stored once', async () => {
    const own = await startService({
      PLAY_INTAKE_MAX_PENDING: '60',
      PAIRING_RATE_MAX: '1000',
      PAIR_ATTEMPT_RATE_MAX: '1000',
    });
    try {
      const t0 = Date.now() - 7 * HOUR;
      await onClock(own, t0, async () => {
        const owner = member();
        const file = await announcer(own).file(owner.userId, 4, t0 - HOUR);
        const devices: Device[] = [];
        for (let i = 0; i < 12; i++) devices.push(await displayGiven(own, owner, file));
        own.clock.offsetMs = t0 + 2 * HOUR - Date.now();
        const { intake } = own.server.context.data;
        const batches = devices.map((d) => ({ d, plays: records(file, t0 + MIN, 40) }));
        let most = 0;
        let waited = 0;
        const watch = setInterval(() => {
          const p = intake.pending();
          most = Math.max(most, p.messages);
          waited = Math.max(waited, p.calls);
        }, 1);
        const answers = await Promise.all(batches.map(({ d, plays }) => post(own, d, plays)));
        clearInterval(watch);
        expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
        expect(answers.every((a) => (a.body as { accepted: number }).accepted === 40)).toBe(true);
        // never more than the bound awaiting acknowledgement (one batch of 40 at a time, then the next)
        expect(most).toBeLessThanOrEqual(60);
        expect(intake.pending()).toEqual({ messages: 0, calls: 0 });
        await playsJudged(own);
        expect(
          await storedOnce(
            own,
            batches.flatMap((b) => b.plays.map((r) => r.id)),
          ),
        ).toBe(480);
        expect(await report(own, owner, t0 + MIN)).toEqual({ plays: 480, seconds: 4800 });
        // the batches arrived together and the bound held some back (sampled: at least once seen waiting)
        expect(waited).toBeGreaterThan(0);
      });
    } finally {
      await own.close();
    }
  });
});
