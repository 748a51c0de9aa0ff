// Proof of play, property test against the real service (FerretDB, NATS, the HTTP routes and event consumers; the
// service's clock is moved along a simulated half hour per run). Each run draws a world (files, licences with ends,
// playlists that change, screens whose assignment changes) and displays: honest ones (online with live changes
// reaching them within 40 s, some offline for minutes and sending their backlog on return, respecting licence ends)
// and a dishonest one (forged files, overlaps, pages out of range, future and pre-pairing starts, hour-long records,
// records while the screen was closed). Screens have opening hours closing them for a few minutes of the half hour
//: honest displays play and record nothing then, and stop a record at closing.
// Afterwards: no screen's accepted plays overlap or add up to more time than passed, every accepted record was given,
// owned or licensed, of an existing page, at its start, and made while the screen was open (by an oracle written here
// from the rules), and no honest record was refused. Batches go through the intake stream as the displays' do: each
// answered once taken, judged behind it (in the judge's own groups) before the properties are checked. PROPERTY_SEED=<n> replays a run; PROPERTY_RUNS=<n> changes how many.
import { randomUUID } from 'node:crypto';
import {
  PLAY_BATCH_MAX,
  playRefusalReasons,
  resolvePlaying,
  SCREEN_OFFLINE_AFTER_SECONDS,
  type ScreenAssignment,
} from '@pagecast/contracts';
import { expect, it } from 'vitest';
import { countsAsPlay } from '../src/domain';
import { announcer, call, eventsHandled, member, pairDisplay, playsJudged, useService } from './helpers';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 50);
const SEED = Number(process.env.PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));

const svc = useService();

/** ms spent per kind of action (pairing, assignment, heartbeat, batch), printed at the end */
const timing: number[] = [];
const SEC = 1000;
const MIN = 60 * SEC;
const HORIZON = 30 * MIN;
const BEAT = 30 * SEC;
const FLUSH = 3 * MIN;
const ZONE = 'Asia/Tokyo';

/** mulberry32: small, seedable, good enough to draw worlds */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return {
    int,
    chance: (p: number) => next() < p,
    pick: <T>(list: readonly T[]): T => list[int(0, list.length - 1)] as T,
    subset: <T>(list: readonly T[]): T[] => {
      const out = list.filter(() => next() < 0.5);
      return out.length > 0 ? out : [list[int(0, list.length - 1)] as T];
    },
  };
}
type Random = ReturnType<typeof random>;

interface Version {
  from: number;
  fileIds: string[];
}
interface World {
  /** videoSeconds: a video's length (its poster is its one page) */
  files: Map<string, { ownerId: string; pageCount: number; videoSeconds?: number }>;
  playlists: Map<string, Version[]>;
  /** `${buyerId}:${fileId}` → periods */
  licences: Map<string, Array<{ from: number; to: number }>>;
}
type Device = { deviceId: string; screenId: string; ownerId: string };
interface Sent {
  fileId: string;
  page: number;
  start: number;
  seconds: number;
  /** a video's record: the second it says it reached */
  reachedSecond?: number;
  honest: boolean;
  sentAt: number;
}
interface Sim {
  honest: boolean;
  ownerId: string;
  device?: Device;
  pairedAt: number;
  assignments: Array<{ at: number; assignment: ScreenAssignment }>;
  /** every time the test reached the service for this screen (pairing, heartbeats, batches) */
  contacts: number[];
  sent: Map<string, Sent>;
  /** an honest display's time without network */
  offline?: { from: number; to: number };
  /** closed by its opening hours (set with its first assignment, never changed) from `from` until `to` */
  closed?: { from: number; to: number };
}
interface Stats {
  honest: number;
  honestOffline: number;
  dishonestAccepted: number;
  refused: Record<string, number>;
}
interface Action {
  at: number;
  order: number;
  run: () => Promise<void>;
}

const lastAtOrBefore = <T extends { at?: number; from?: number }>(list: T[], t: number, key: (x: T) => number) => {
  let found: T | undefined;
  for (const x of list) if (key(x) <= t) found = x;
  return found;
};
const versionAt = (world: World, playlistId: string, t: number) =>
  lastAtOrBefore(world.playlists.get(playlistId) ?? [], t, (v) => v.from)?.fileIds ?? [];
const assignmentAt = (sim: Sim, t: number) =>
  lastAtOrBefore(sim.assignments, t, (a) => a.at)?.assignment ?? ({ kind: 'none' } as ScreenAssignment);

/** Oracle: what the rules say a screen was given at an instant (a schedule: every playlist it names). */
function givenAt(world: World, sim: Sim, t: number): Set<string> {
  const a = assignmentAt(sim, t);
  if (a.kind === 'file') return new Set([a.fileId]);
  if (a.kind === 'playlist') return new Set(versionAt(world, a.playlistId, t));
  if (a.kind === 'schedule') {
    const ids = [...a.schedule.parts.map((p) => p.playlistId), a.schedule.defaultPlaylistId ?? ''];
    return new Set(ids.flatMap((id) => versionAt(world, id, t)));
  }
  return new Set();
}
function givenDuring(world: World, sim: Sim, fileId: string, from: number, to: number): boolean {
  const points = [from];
  for (const a of sim.assignments) if (a.at > from && a.at <= to) points.push(a.at);
  for (const versions of world.playlists.values())
    for (const v of versions) if (v.from > from && v.from <= to) points.push(v.from);
  return points.some((p) => givenAt(world, sim, p).has(fileId));
}
/** Oracle of "given": the rules of the issue, with the gaps this test made (and 1 s for the clock's own drift). */
function wasGiven(world: World, sim: Sim, fileId: string, t: number): boolean {
  if (givenDuring(world, sim, fileId, t - 61 * SEC, t + SEC)) return true;
  const contacts = [...sim.contacts].sort((a, b) => a - b);
  for (let i = 1; i < contacts.length; i++) {
    const [from, to] = [contacts[i - 1] as number, contacts[i] as number];
    if (to - from <= SCREEN_OFFLINE_AFTER_SECONDS * SEC) continue;
    if (from <= t && t <= to + 61 * SEC && givenDuring(world, sim, fileId, from - 61 * SEC, from + 36 * SEC))
      return true;
  }
  return false;
}
const ownedOrLicensed = (world: World, ownerId: string, fileId: string, t: number) =>
  world.files.get(fileId)?.ownerId === ownerId ||
  (world.licences.get(`${ownerId}:${fileId}`) ?? []).some((l) => l.from <= t && t < l.to);

const plays = (device: Device, records: Array<{ id: string } & Omit<Sent, 'honest' | 'sentAt'>>) =>
  call(svc, { device }, 'POST', '/api/screens/device/plays', {
    plays: records.map((r) => ({
      id: r.id,
      fileId: r.fileId,
      page: r.page,
      startedAt: new Date(r.start).toISOString(),
      seconds: r.seconds,
      ...(r.reachedSecond !== undefined ? { reachedSecond: r.reachedSecond } : {}),
    })),
  });

async function oneRun(run: number, rnd: Random, stats: Stats): Promise<string[]> {
  const t0 = Date.now() - rnd.int(1, 20) * 86_400_000 - rnd.int(0, 23) * 3_600_000;
  const end = t0 + HORIZON;
  const owner = member();
  const seller = member();
  const stranger = member();
  const facts = announcer(svc);
  const world: World = { files: new Map(), playlists: new Map(), licences: new Map() };
  const clockAt = (ms: number) => {
    svc.clock.offsetMs = ms - Date.now();
  };

  // the world, announced up front with its times (the read models keep them by time)
  clockAt(t0 - 2 * 3_600_000);
  const newFile = async (ownerId: string, videoSeconds?: number) => {
    const pageCount = videoSeconds === undefined ? rnd.int(1, 4) : 1;
    const videoMs = videoSeconds === undefined ? undefined : videoSeconds * SEC;
    const id = await facts.file(ownerId, pageCount, t0 - 3_600_000, undefined, videoMs);
    world.files.set(id, { ownerId, pageCount, ...(videoSeconds !== undefined ? { videoSeconds } : {}) });
    return id;
  };
  // the third is a video as long as a page shows (10 s): a record may say how far it reached
  const own = [await newFile(owner.userId), await newFile(owner.userId), await newFile(owner.userId, 10)];
  const bought = [await newFile(seller.userId), await newFile(seller.userId)];
  const forged = await newFile(stranger.userId);
  for (const fileId of bought) {
    const period = { from: t0 - 3_600_000, to: t0 + rnd.int(5, 45) * MIN };
    await facts.purchase(owner.userId, fileId, seller.userId, period.from, period.to);
    world.licences.set(`${owner.userId}:${fileId}`, [period]);
  }
  const playable = [...own, ...bought];
  const lists: string[] = [];
  for (let i = 0; i < 2; i++) {
    const versions: Version[] = [{ from: t0 - 30 * MIN, fileIds: rnd.subset(playable) }];
    for (let k = rnd.int(0, 2); k > 0; k--)
      versions.push({ from: t0 + rnd.int(1, 28) * MIN, fileIds: rnd.subset(playable) });
    versions.sort((a, b) => a.from - b.from);
    const id = `pl-${randomUUID()}`;
    for (const v of versions) await facts.playlist(owner.userId, v.fileIds, v.from, id);
    world.playlists.set(id, versions);
    lists.push(id);
  }
  await eventsHandled(svc);

  const drawAssignment = (at: number): ScreenAssignment => {
    const kind = rnd.pick(['playlist', 'file', 'schedule'] as const);
    if (kind === 'playlist') return { kind, playlistId: rnd.pick(lists) };
    // a bought file is given only while its licence is live (PUT /api/screens/:id refuses it otherwise)
    if (kind === 'file')
      return { kind, fileId: rnd.pick(playable.filter((f) => ownedOrLicensed(world, owner.userId, f, at))) };
    // a day part starting within the half hour, in the screen's zone (Tokyo has no daylight saving)
    const startsAt = new Date(t0 + rnd.int(0, 20) * MIN + 9 * 3_600_000);
    const hhmm = (d: Date) =>
      `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
    return {
      kind,
      schedule: {
        parts: [
          {
            days: [0, 1, 2, 3, 4, 5, 6],
            start: hhmm(startsAt),
            end: hhmm(new Date(startsAt.getTime() + 10 * MIN)),
            playlistId: lists[0] as string,
          },
        ],
        defaultPlaylistId: lists[1] as string,
      },
    };
  };

  // opening hours that close the screen for a few whole minutes of the half hour (Tokyo wall clock, no daylight saving)
  const tokyoHhmm = (ms: number) => new Date(ms + 9 * 3_600_000).toISOString().slice(11, 16);
  const drawClosed = () => {
    const from = Math.ceil((t0 + rnd.int(5, 20) * MIN) / MIN) * MIN;
    return { from, to: from + rnd.int(2, 6) * MIN };
  };
  // open from the end of the closed minutes until their start (a span whose end is before its start crosses midnight)
  const hoursOf = (closed: { from: number; to: number }) => [
    { days: [0, 1, 2, 3, 4, 5, 6], start: tokyoHhmm(closed.to), end: tokyoHhmm(closed.from) },
  ];

  const actions: Action[] = [];
  const sims: Sim[] = [];
  const honestCount = rnd.int(1, 2);
  for (let i = 0; i <= honestCount; i++) {
    const sim: Sim = {
      honest: i < honestCount,
      ownerId: owner.userId,
      pairedAt: t0 - 30 * SEC,
      assignments: [{ at: t0 - 20 * SEC, assignment: drawAssignment(t0 - 20 * SEC) }],
      contacts: [t0 - 30 * SEC],
      sent: new Map(),
      // every dishonest screen has hours (its 'closed' records are refused), most honest ones too
      ...(i === honestCount || rnd.chance(0.7) ? { closed: drawClosed() } : {}),
    };
    for (let k = rnd.int(0, 2); k > 0; k--) {
      const at = t0 + rnd.int(1, 28 * 60) * SEC;
      sim.assignments.push({ at, assignment: drawAssignment(at) });
    }
    sim.assignments.sort((a, b) => a.at - b.at);
    sims.push(sim);
    actions.push({
      at: sim.pairedAt,
      order: 0,
      run: async () => {
        sim.device = (await pairDisplay(svc, owner, `Screen ${i}`)).device;
      },
    });
    for (const [n, a] of sim.assignments.entries()) {
      actions.push({
        at: a.at,
        order: 1,
        run: async () => {
          const res = await call(svc, owner, 'PUT', `/api/screens/${sim.device?.screenId}`, {
            assignment: a.assignment,
            ...(n === 0 && sim.closed ? { openingHours: hoursOf(sim.closed) } : {}),
          });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
        },
      });
    }
    if (sim.honest) planHonest(sim, world, rnd, t0, end, actions);
    else planDishonest(sim, world, rnd, t0, end, actions, { forged, own, bought });
  }

  actions.sort((a, b) => a.at - b.at || a.order - b.order);
  for (const action of actions) {
    clockAt(action.at);
    const started = performance.now();
    await action.run();
    timing[action.order] = (timing[action.order] ?? 0) + performance.now() - started;
  }
  svc.clock.offsetMs = 0;
  // the batches were answered once the intake stream took them; the judge works behind it, in groups of its own
  await playsJudged(svc);
  return check(run, world, sims, end, stats);
}

/** An honest display: plays what it was given (live changes after `lag`), respects licence ends, may go offline. */
function planHonest(sim: Sim, world: World, rnd: Random, t0: number, end: number, actions: Action[]) {
  const lag = rnd.int(1, 40) * SEC;
  const catchUp = rnd.int(1, 40) * SEC;
  const offline = rnd.chance(0.6) ? { from: t0 + rnd.int(3, 15) * MIN + rnd.int(0, 59) * SEC, to: 0 } : undefined;
  if (offline) offline.to = Math.min(offline.from + rnd.int(2, 12) * MIN, end - 2 * MIN);
  const isOffline = (t: number) => offline !== undefined && t > offline.from && t < offline.to;

  const contacts: number[] = [];
  for (let t = t0; t <= end; t += BEAT) if (!isOffline(t)) contacts.push(t);
  const flushes = new Set<number>();
  for (let t = t0 + FLUSH; t <= end; t += FLUSH) if (!isOffline(t)) flushes.add(t);
  flushes.add(end);
  if (offline) {
    sim.offline = offline;
    contacts.push(offline.to);
    flushes.add(offline.to);
  }

  // what the display plays at t: what it knew then (the content `lag` ago; offline, what it knew when it went)
  const knowledgeAt = (t: number) => {
    const stale = offline && t > offline.from && t < offline.to + catchUp;
    return stale ? offline.from - lag : t - lag;
  };
  const filesAt = (t: number): string[] => {
    const known = knowledgeAt(t);
    const playing = resolvePlaying(assignmentAt(sim, known), ZONE, t);
    const files =
      playing.kind === 'file'
        ? [playing.fileId]
        : playing.kind === 'playlist'
          ? versionAt(world, playing.playlistId, known)
          : [];
    return files.filter((f) => ownedOrLicensed(world, sim.ownerId, f, t));
  };
  const records: Array<{ id: string; fileId: string; page: number; start: number; seconds: number }> = [];
  let key = '';
  let step = 0;
  // closed: black until it opens (the display looks again a millisecond after each minute starts)
  const closed = sim.closed;
  for (let t = t0; t < end - MIN; ) {
    if (closed && t >= closed.from && t < closed.to) {
      t = closed.to + 1;
      continue;
    }
    const files = filesAt(t);
    const slides = files.flatMap((f) =>
      Array.from({ length: world.files.get(f)?.pageCount ?? 0 }, (_, i) => ({ fileId: f, page: i + 1 })),
    );
    if (slides.length === 0) {
      t += 10 * SEC;
      continue;
    }
    if (files.join() !== key) {
      key = files.join();
      step = 0;
    }
    const slide = slides[step++ % slides.length] as { fileId: string; page: number };
    let ms = rnd.int(3000, 20000);
    // it stops at closing: the record ends there
    if (closed && t < closed.from && t + ms > closed.from) ms = closed.from - t;
    if (ms >= 1000) records.push({ id: randomUUID(), ...slide, start: t, seconds: Math.round(ms / 100) / 10 });
    t += ms;
  }

  const beats = contacts.filter((t) => !flushes.has(t) || rnd.chance(0.5));
  for (const at of beats) {
    actions.push({
      at,
      order: 2,
      run: async () => {
        const res = await call(svc, { device: sim.device as Device }, 'POST', '/api/screens/device/heartbeat', {
          appVersion: '1',
          screenSize: { width: 1, height: 1 },
          nowPlaying: null,
        });
        expect(res.status).toBe(200);
        sim.contacts.push(at);
      },
    });
  }
  let cursor = 0;
  for (const at of [...flushes].sort((a, b) => a - b)) {
    actions.push({
      at,
      order: 3,
      run: async () => {
        const due: typeof records = [];
        while (
          cursor < records.length &&
          (records[cursor] as (typeof records)[number]).start +
            (records[cursor] as (typeof records)[number]).seconds * SEC <=
            at
        ) {
          due.push(records[cursor++] as (typeof records)[number]);
        }
        sim.contacts.push(at);
        for (let i = 0; i < due.length; i += PLAY_BATCH_MAX) {
          const batch = due.slice(i, i + PLAY_BATCH_MAX);
          const res = await plays(sim.device as Device, batch);
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          for (const r of batch) sim.sent.set(r.id, { ...r, honest: true, sentAt: at });
        }
      },
    });
  }
}

/** A dishonest display: online, but its batches mix forged, overlapping, out-of-range and implausible records. */
function planDishonest(
  sim: Sim,
  world: World,
  rnd: Random,
  t0: number,
  end: number,
  actions: Action[],
  files: { forged: string; own: string[]; bought: string[] },
) {
  for (let at = t0; at <= end; at += BEAT) {
    actions.push({
      at,
      order: 2,
      run: async () => {
        await call(svc, { device: sim.device as Device }, 'POST', '/api/screens/device/heartbeat', {
          appVersion: '1',
          screenSize: { width: 1, height: 1 },
          nowPlaying: null,
        });
        sim.contacts.push(at);
      },
    });
  }
  const previous: Sent[] = [];
  for (let at = t0 + FLUSH; at <= end; at += FLUSH) {
    actions.push({
      at,
      order: 3,
      run: async () => {
        const batch: Array<{ id: string } & Omit<Sent, 'honest' | 'sentAt'>> = [];
        const inWindow = () => at - FLUSH + rnd.int(0, FLUSH - 30 * SEC);
        const anyFile = () => rnd.pick([...files.own, ...files.bought]);
        for (let n = rnd.int(5, 25); n > 0; n--) {
          const kind = rnd.pick([
            'plausible',
            'forged',
            'overlap',
            'page',
            'future',
            'past',
            'long',
            'closed',
            'crumbs',
            'chain',
            'ahead',
            'reached',
          ] as const);
          const id = randomUUID();
          const { closed } = sim;
          if (kind === 'closed' && closed && closed.to <= at) {
            const start = closed.from + rnd.int(0, closed.to - closed.from - 20 * SEC);
            batch.push({ id, fileId: anyFile(), page: 1, start, seconds: 10 });
          } else if (kind === 'plausible' || kind === 'closed')
            batch.push({ id, fileId: anyFile(), page: 1, start: inWindow(), seconds: rnd.int(1, 20) });
          else if (kind === 'forged') batch.push({ id, fileId: files.forged, page: 1, start: inWindow(), seconds: 10 });
          else if (kind === 'overlap' && previous.length > 0) {
            const p = rnd.pick(previous);
            batch.push({ id, fileId: p.fileId, page: p.page, start: p.start + rnd.int(0, 2000), seconds: p.seconds });
          } else if (kind === 'page') {
            const fileId = anyFile();
            const count = world.files.get(fileId)?.pageCount ?? 1;
            batch.push({
              id,
              fileId,
              page: rnd.chance(0.5) ? 0 : count + rnd.int(1, 3),
              start: inWindow(),
              seconds: 10,
            });
          } else if (kind === 'future') {
            batch.push({
              id,
              fileId: anyFile(),
              page: 1,
              start: at - rnd.int(0, 60) * SEC,
              seconds: rnd.int(400, 3000),
            });
          } else if (kind === 'crumbs') {
            // a page's worth of 1 ms records, 2 ms apart
            const start = inWindow();
            for (let i = 0; i < 20; i++) {
              batch.push({ id: randomUUID(), fileId: anyFile(), page: 1, start: start + 2 * i, seconds: 0.001 });
            }
          } else if (kind === 'chain') {
            // 2 s records each overlapping the one before by 0.99 s
            const start = inWindow();
            for (let i = 0; i < 10; i++) {
              batch.push({ id: randomUUID(), fileId: anyFile(), page: 1, start: start + i * 1010, seconds: 2 });
            }
          } else if (kind === 'ahead') {
            batch.push({ id, fileId: anyFile(), page: 1, start: at + rnd.int(10, 80) * SEC, seconds: 5 });
          } else if (kind === 'reached') {
            // a video's record claiming a second past its end (a page's record claiming one is refused as no video)
            const video = [...files.own, ...files.bought].find((f) => world.files.get(f)?.videoSeconds !== undefined);
            const fileId = video ?? anyFile();
            const reachedSecond = (world.files.get(fileId)?.videoSeconds ?? 10) + rnd.int(2, 300);
            batch.push({ id, fileId, page: 1, start: inWindow(), seconds: 10, reachedSecond });
          } else if (kind === 'past') {
            batch.push({ id, fileId: anyFile(), page: 1, start: sim.pairedAt - rnd.int(6, 600) * MIN, seconds: 10 });
          } else batch.push({ id, fileId: anyFile(), page: 1, start: inWindow() - 30 * MIN, seconds: 3600 });
        }
        sim.contacts.push(at);
        const res = await plays(sim.device as Device, batch);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        for (const r of batch) {
          const sent = { ...r, honest: false, sentAt: at };
          sim.sent.set(r.id, sent);
          previous.push(sent);
        }
      },
    });
  }
}

/** The properties, over what the service stored. */
async function check(run: number, world: World, sims: Sim[], end: number, stats: Stats): Promise<string[]> {
  const problems: string[] = [];
  const db = svc.server.context.conn;
  for (const sim of sims) {
    const screenId = sim.device?.screenId;
    // read by _id (what was sent), in chunks the database serves from its index
    const ids = [...sim.sent.keys()];
    const byIds = async <T>(collection: string) => {
      const out: T[] = [];
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        out.push(
          ...((await db
            .collection(collection)
            .find({ _id: { $in: chunk } } as never)
            .toArray()) as T[]),
        );
      }
      return out;
    };
    const accepted = await byIds<{ _id: string; screenId: string; seconds: number; pageSeconds?: number }>('plays');
    const refused = await byIds<{ _id: string; screenId: string; reason: string }>('play_refusals');
    for (const doc of [...accepted, ...refused]) {
      if (doc.screenId !== screenId) problems.push(`run ${run}: record ${doc._id} stored for another screen`);
    }
    const label = `run ${run} ${sim.honest ? 'honest' : 'dishonest'} screen ${screenId}`;
    if (accepted.length + refused.length !== sim.sent.size) {
      problems.push(`${label}: ${sim.sent.size} sent, ${accepted.length} accepted + ${refused.length} refused stored`);
    }
    // every accepted record: given, owned or licensed, an existing page, a plausible time
    const spans: Array<{ s: number; e: number; credited: number }> = [];
    let plays = 0;
    for (const doc of accepted) {
      const r = sim.sent.get(doc._id);
      if (!r) {
        problems.push(`${label}: accepted ${doc._id} was never sent`);
        continue;
      }
      const what = `${label}: accepted ${JSON.stringify(r)}`;
      if (!wasGiven(world, sim, r.fileId, r.start)) problems.push(`${what} was not given`);
      if (!ownedOrLicensed(world, sim.ownerId, r.fileId, r.start))
        problems.push(`${what} was neither owned nor licensed`);
      if (r.page < 1 || r.page > (world.files.get(r.fileId)?.pageCount ?? 0)) problems.push(`${what}: no such page`);
      const videoSeconds = world.files.get(r.fileId)?.videoSeconds;
      if (r.reachedSecond !== undefined && videoSeconds !== undefined && r.reachedSecond > videoSeconds + 1)
        problems.push(`${what}: reached past the video's end`);
      // ends by the batch's sending on the display's clock (these displays' heartbeats carry none: 0 ahead), plus the
      // 5 s margin and a second for the service's clock running on
      if (r.start < sim.pairedAt - 5 * MIN || r.start + r.seconds * SEC > r.sentAt + 6 * SEC)
        problems.push(`${what}: implausible time`);
      if (countsAsPlay(doc.seconds, doc.pageSeconds)) plays++;
      // open throughout, but for a second at each end
      const margin = Math.min(SEC, (r.seconds * SEC) / 2);
      const { closed } = sim;
      if (closed && r.start + margin < closed.to && r.start + r.seconds * SEC - margin >= closed.from)
        problems.push(`${what} was made while the screen was closed`);
      spans.push({ s: r.start, e: r.start + r.seconds * SEC, credited: doc.seconds });
    }
    // no overlap beyond the tolerance, and never more seconds than passed
    spans.sort((a, b) => a.s - b.s);
    for (let i = 0; i < spans.length; i++) {
      for (let j = i + 1; j < spans.length && (spans[j] as { s: number }).s < (spans[i] as { e: number }).e; j++) {
        const [a, b] = [spans[i] as { s: number; e: number }, spans[j] as { s: number; e: number }];
        const overlap = Math.min(a.e, b.e) - Math.max(a.s, b.s);
        if (overlap > 1000) problems.push(`${label}: accepted plays overlap by ${overlap} ms`);
      }
    }
    const credited = spans.reduce((n, s) => n + s.credited, 0);
    const elapsed = (end - (sim.pairedAt - 5 * MIN)) / SEC;
    if (credited > elapsed) problems.push(`${label}: ${credited} s accepted, only ${elapsed} s passed`);
    // plays count time: every file's pages last 10 s, so a play is at least 8 s of credited time (less the rounding)
    if (plays > credited / (0.8 * 10 - 0.05)) problems.push(`${label}: ${plays} plays in ${credited} s`);
    for (const doc of refused) stats.refused[doc.reason] = (stats.refused[doc.reason] ?? 0) + 1;
    if (sim.honest) {
      stats.honest += accepted.length;
      const { offline } = sim;
      if (offline) {
        stats.honestOffline += accepted.filter((d) => {
          const start = sim.sent.get(d._id)?.start ?? 0;
          return start > offline.from && start < offline.to;
        }).length;
      }
    } else stats.dishonestAccepted += accepted.length;
    // no honest record refused
    if (sim.honest) {
      for (const doc of refused) {
        problems.push(`${label}: honest record refused (${doc.reason}): ${JSON.stringify(sim.sent.get(doc._id))}`);
      }
    }
  }
  return problems;
}

it(`holds for random honest and dishonest displays (${RUNS} runs)`, { timeout: 20 * 60_000 }, async () => {
  console.log(`proof-of-play property test: PROPERTY_SEED=${SEED}, ${RUNS} runs`);
  const rnd = random(SEED);
  const stats: Stats = { honest: 0, honestOffline: 0, dishonestAccepted: 0, refused: {} };
  for (let run = 0; run < RUNS; run++) {
    const problems = await oneRun(run, rnd, stats);
    expect(problems, `PROPERTY_SEED=${SEED}`).toEqual([]);
  }
  console.log(`proof-of-play property test: ${JSON.stringify(stats)}`);
  console.log(`ms spent pairing, assigning, in heartbeats, in batches: ${timing.map(Math.round).join(', ')}`);
  // the runs did exercise the rules: honest plays online and offline counted, every refusal reason met
  expect(stats.honest).toBeGreaterThan(0);
  expect(stats.honestOffline).toBeGreaterThan(0);
  if (RUNS >= 20) expect(Object.keys(stats.refused).sort()).toEqual([...playRefusalReasons].sort());
});
