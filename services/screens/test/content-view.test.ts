// The content read models in memory on every instance: files, playlists and licences are applied from the
// events each instance hears, so a change is judged by another instance at once (no clock move, no minute of cache),
// an event heard before the durable consumer wrote its document is not lost, de-duplication by record id holds across
// instances, and a restart rebuilds the same judgements. Real FerretDB and NATS, two instances on one database.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumerNames } from '../src/events';
import {
  announcer,
  assign,
  call,
  eventsHandled,
  member,
  pairDisplay,
  sendPlays,
  startReplica,
  startService,
  type TestService,
} from './helpers';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

const record = (fileId: string, start: number, seconds = 10, page = 1) => ({
  id: randomUUID(),
  fileId,
  page,
  startedAt: new Date(start).toISOString(),
  seconds,
});

/** Every message published before this call has been handed to the instance's followed subscriptions (a ping). */
const heardBy = (svc: TestService) => svc.server.context.nats.nc.flush();

/** The instance's durable consumers are deleted: it writes no read model any more (it still hears the events). */
async function withoutWriter(svc: TestService): Promise<void> {
  const { jsm } = svc.server.context.nats;
  for (const [stream, name] of Object.entries(consumerNames(svc.server.context.config.CONSUMER_PREFIX)))
    await jsm.consumers.delete(stream, name);
}

/** Database reads of the content read models this instance made so far. */
const contentReads = (svc: TestService) => svc.server.context.data.content.reads;

/**
 * A display of `owner` paired through `svc` and given `playlistId`; returns it and when it was given. Its heartbeat
 * through `judge` (the instance its batches go to, which holds the status at once) says its clock is 5 minutes ahead,
 * so records up to then (these tests send them ahead of the real time rather than moving two clocks) may end then.
 */
async function displayOf(svc: TestService, owner: { userId: string }, playlistId: string, judge = svc) {
  const { device } = await pairDisplay(svc, owner);
  await assign(svc, owner, device.screenId, { kind: 'playlist', playlistId });
  const beat = await call(judge, { device }, 'POST', '/api/screens/device/heartbeat', {
    appVersion: 'test',
    screenSize: { width: 1, height: 1 },
    nowPlaying: null,
    sentAt: new Date(Date.now() + 5 * MIN).toISOString(),
  });
  expect(beat.status).toBe(200);
  return { device, givenAt: Date.now() };
}

describe('content judged from memory on every instance (writers running)', () => {
  let a: TestService;
  let b: TestService;
  beforeAll(async () => {
    // B judges the play records (whichever instance takes them in): what B holds in memory is what is measured
    a = await startService({ PLAY_JUDGE: '0' });
    b = await startReplica(a, { PLAY_JUDGE: '1' });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a deleted file and a playlist change are refused at once by the instance that held them, a batch counts once across instances, and a restart judges the same', async () => {
    const facts = announcer(a);
    const owner = member();
    const t0 = Date.now();
    const [f1, f2, f3] = [
      await facts.file(owner.userId, 3, t0 - HOUR),
      await facts.file(owner.userId, 3, t0 - HOUR),
      await facts.file(owner.userId, 3, t0 - HOUR),
    ] as [string, string, string];
    const list = await facts.playlist(owner.userId, [f1, f2, f3], t0 - HOUR);
    await eventsHandled(a);
    await eventsHandled(b);
    // in production the instances share one durable and each message is written by one of them: here A writes, B
    // only hears (its own durable is gone), so nothing B does for the database could refresh what it holds
    await withoutWriter(b);
    const { device, givenAt: s0 } = await displayOf(a, owner, list, b);

    // B reads first: its memory holds the playlist and the three files as they are now
    expect(await sendPlays(b, device, [record(f1, s0), record(f2, s0 + 10_000), record(f3, s0 + 20_000)])).toEqual({
      accepted: 3,
      duplicates: 0,
      refused: 0,
      refusedByReason: {},
    });

    // f2 is deleted and the playlist loses f3 (both as of earlier: the change applies to every record since)
    await facts.fileDeleted(owner.userId, f2, t0 - 30 * MIN);
    await facts.playlist(owner.userId, [f1, f2], t0 - 20 * MIN, list);
    await eventsHandled(a);
    await heardBy(b);

    const after = [record(f1, s0 + 30_000), record(f2, s0 + 40_000), record(f3, s0 + 50_000)];
    expect(await sendPlays(b, device, after)).toEqual({
      accepted: 1,
      duplicates: 0,
      refused: 2,
      refusedByReason: { 'not-assigned': 2 },
    });
    // the same batch again through A: each record counts once
    expect(await sendPlays(a, device, after)).toEqual({ accepted: 0, duplicates: 3, refused: 0, refusedByReason: {} });
    // a batch sent to A and then to B counts once
    const once = [record(f1, s0 + 60_000), record(f1, s0 + 70_000), record(f1, s0 + 80_000)];
    expect(await sendPlays(a, device, once)).toEqual({ accepted: 3, duplicates: 0, refused: 0, refusedByReason: {} });
    expect(await sendPlays(b, device, once)).toEqual({ accepted: 0, duplicates: 3, refused: 0, refusedByReason: {} });
    const day = new Date(s0).toLocaleDateString('en-CA', { timeZone: 'Asia/Tokyo' });
    const counted = (await call(a, owner, 'GET', `/api/screens/plays?from=${day}&to=${day}`)).body as unknown as Array<{
      plays: number;
    }>;
    expect(counted.reduce((n, r) => n + r.plays, 0)).toBe(3 + 1 + 3);

    // B restarts with an empty memory: it rebuilds the same judgements from what was written
    await b.close();
    b = await startReplica(a, { PLAY_JUDGE: '1' });
    expect(
      await sendPlays(b, device, [record(f1, s0 + 90_000), record(f2, s0 + 100_000), record(f3, s0 + 110_000)]),
    ).toEqual({ accepted: 1, duplicates: 0, refused: 2, refusedByReason: { 'not-assigned': 2 } });
  });

  it('judges a warm play batch of 3 records with no content read, a playlist change included (figures printed)', async () => {
    const facts = announcer(a);
    const owner = member();
    const t0 = Date.now();
    const files: string[] = [];
    for (let i = 0; i < 4; i++) files.push(await facts.file(owner.userId, 3, t0 - HOUR));
    const [f1, f2, f3, f4] = files as [string, string, string, string];
    const list = await facts.playlist(owner.userId, [f1, f2, f3], t0 - HOUR);
    await eventsHandled(a);
    await heardBy(b);
    const { device, givenAt: s0 } = await displayOf(a, owner, list, b);
    let start = s0;
    const batch = (ids: string[]) =>
      ids.map((f) => {
        start += 2_000; // 1 s records, 2 s apart: 20 batches stay within the 5 minutes a record may end ahead
        return record(f, start, 1);
      });

    // the first batch reads the playlist, the files and the licences (batched by _id)
    const cold = contentReads(b);
    expect((await sendPlays(b, device, batch([f1, f2, f3]))).accepted).toBe(3);
    const coldReads = contentReads(b) - cold;
    // f4 is not in the playlist yet (B reads it too, and again afresh before refusing)
    expect((await sendPlays(b, device, batch([f4]))).refusedByReason).toEqual({ 'not-assigned': 1 });
    expect(coldReads).toBeGreaterThan(0);

    // the playlist gains f4 (through A's database writer and B's hearing): B judges it with no read at all
    await facts.playlist(owner.userId, [f1, f2, f3, f4], t0 - 10 * MIN, list);
    await eventsHandled(a);
    await heardBy(b);
    const warm = contentReads(b);
    const rounds = 20;
    let batchMs = 0;
    for (let i = 0; i < rounds; i++) {
      const t = performance.now();
      const verdicts = await sendPlays(b, device, batch(i === 0 ? [f4, f1, f2] : [f1, f2, f3]));
      batchMs += performance.now() - t;
      expect(verdicts.accepted).toBe(3);
    }
    expect(contentReads(b) - warm).toBe(0);

    // the evidence of one batch of 3 records: from memory, and as a miss (a database read) costs
    const { content } = b.server.context.data;
    const evidence = async (fresh: boolean) => {
      const now = Date.now();
      await Promise.all([
        content.playlists([list], now, fresh),
        content.files([f1, f2, f3], now, fresh),
        content.licences(owner.userId, [f1, f2, f3], now, fresh),
      ]);
    };
    const time = async (fresh: boolean, n: number) => {
      const t = performance.now();
      for (let i = 0; i < n; i++) await evidence(fresh);
      return ((performance.now() - t) * 1000) / n;
    };
    await time(false, 100);
    const fromMemoryUs = await time(false, 2000);
    const fromDatabaseUs = await time(true, 50);
    console.log(
      `content view: a batch of 3 records' content evidence ${fromMemoryUs.toFixed(1)} µs from memory, ` +
        `${fromDatabaseUs.toFixed(0)} µs read from FerretDB (3 batched reads); content reads per batch: first ` +
        `${coldReads}, then 0 over ${rounds} batches; whole batch through HTTP on B ${(batchMs / rounds).toFixed(1)} ms`,
    );
  });
});

describe('an event heard before the durable consumer wrote its document', () => {
  let a: TestService;
  let b: TestService;
  beforeAll(async () => {
    // B judges the play records (whichever instance takes them in): what B holds in memory is what is measured
    a = await startService({ PLAY_JUDGE: '0' });
    b = await startReplica(a, { PLAY_JUDGE: '1' });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('is not lost: a playlist saved with new files and a licence bought are accepted at once by B, whose reads precede the write', async () => {
    const facts = announcer(a);
    const owner = member();
    const seller = member();
    const t0 = Date.now();
    const f1 = await facts.file(owner.userId, 3, t0 - HOUR);
    const f2 = await facts.file(owner.userId, 3, t0 - HOUR);
    const sold = await facts.file(seller.userId, 3, t0 - HOUR);
    const list = await facts.playlist(owner.userId, [f1], t0 - HOUR);
    await eventsHandled(a);
    await eventsHandled(b);
    const { device, givenAt: s0 } = await displayOf(a, owner, list, b);

    // B reads first: the playlist without f2 and the seller's file, and no licence of it
    expect(await sendPlays(b, device, [record(f1, s0), record(f2, s0 + 10_000), record(sold, s0 + 20_000)])).toEqual({
      accepted: 1,
      duplicates: 0,
      refused: 2,
      refusedByReason: { 'not-assigned': 2 },
    });

    // no instance writes the read models any more (both durables gone): only what each instance hears remains
    await withoutWriter(a);
    await withoutWriter(b);
    await facts.playlist(owner.userId, [f1, f2, sold], t0 - 10 * MIN, list);
    await facts.purchase(owner.userId, sold, seller.userId, t0 - 10 * MIN, t0 + 30 * DAY);
    // a file and a playlist this instance never read, nor anyone wrote
    const f3 = await facts.file(owner.userId, 2, t0 - HOUR);
    const other = await facts.playlist(owner.userId, [f3], t0 - 10 * MIN);
    await heardBy(a);
    await heardBy(b);
    const db = a.server.context.conn;
    const stored = await db.collection('screen_playlists').findOne({ _id: list as never });
    // (each instance's durable wrote the first version: two writers may both have pushed it, read once by its event id)
    expect(new Set(stored?.versions.map((v: { fileIds: string[] }) => v.fileIds.join()))).toEqual(new Set([f1]));
    expect(await db.collection('screen_licences').findOne({ _id: `${owner.userId}:${sold}` as never })).toBeNull();
    expect(await db.collection('screen_files').findOne({ _id: f3 as never })).toBeNull();

    // B holds the old entries: the heard version and licence are on them
    expect(
      await sendPlays(b, device, [record(f1, s0 + 30_000), record(f2, s0 + 40_000), record(sold, s0 + 50_000)]),
    ).toEqual({ accepted: 3, duplicates: 0, refused: 0, refusedByReason: {} });

    // A accepts the new playlist (its read finds nothing written; what it heard is put on top), B judges its plays
    const second = await displayOf(a, owner, other, b);
    expect(
      await sendPlays(b, second.device, [record(f3, second.givenAt), record(f3, second.givenAt + 10_000, 10, 2)]),
    ).toEqual({ accepted: 2, duplicates: 0, refused: 0, refusedByReason: {} });
    // a page the file does not have is still refused
    expect((await sendPlays(b, second.device, [record(f3, second.givenAt + 20_000, 10, 3)])).refusedByReason).toEqual({
      'no-such-page': 1,
    });
  });

  it('a gap drops what B held: its next judgement reads again, with what it heard (and nobody wrote) on top', async () => {
    // the durables are still gone (the test above): this file and playlist exist only in what A and B heard
    const facts = announcer(a);
    const owner = member();
    const t0 = Date.now();
    const f1 = await facts.file(owner.userId, 3, t0 - HOUR);
    const list = await facts.playlist(owner.userId, [f1], t0 - HOUR);
    await heardBy(a);
    await heardBy(b);
    const { device, givenAt: s0 } = await displayOf(a, owner, list, b);
    expect((await sendPlays(b, device, [record(f1, s0)])).accepted).toBe(1);
    const warm = contentReads(b);
    expect((await sendPlays(b, device, [record(f1, s0 + 10_000)])).accepted).toBe(1);
    expect(contentReads(b)).toBe(warm);
    b.server.context.data.content.dropMemory(); // what onGap does when the connection comes back
    expect((await sendPlays(b, device, [record(f1, s0 + 20_000)])).accepted).toBe(1);
    expect(contentReads(b)).toBeGreaterThan(warm);
  });
});
