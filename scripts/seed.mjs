// npm run seed -- history: fills the database of `npm run load -- screens` (load/lib/load-database.mjs: the kept
// one, .data/test/load-ferretdb, or MONGO_URL) with a year of a fleet's history, so that the load can be run on a
// database as an operator's would be after a year: SEED_SCREENS (1,000) screens of SEED_OWNERS (10) members, each
// with a year of assignment history, takeovers, incidents, day rollups (the year before the retention sealed by
// compaction, with their markers) and, inside the retention (PLAY_RETENTION_DAYS, 35), SEED_RECORDS (5,000,000) raw
// play records (1 % refused), whose rollups agree with them. The screens are unpaired (revoked) ones: their history
// stays, the load pairs its own. Bulk inserts (unordered, SEED_PARALLEL at once), progress every few seconds.
// Run it once on the kept database; each run adds another year of other screens.
import { createHash, randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { loadDatabase } from '../load/lib/load-database.mjs';

const what = process.argv[2];
if (what !== 'history') {
  console.error('usage: npm run seed -- history');
  process.exit(2);
}
const say = (m) => process.stdout.write(`[seed] ${m}\n`);
const num = (name, fallback) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive whole number`);
  return v;
};
const SCREENS = num('SEED_SCREENS', 1000);
const OWNERS = Math.min(num('SEED_OWNERS', 10), SCREENS);
const RECORDS = num('SEED_RECORDS', 5_000_000);
const RETENTION_DAYS = num('PLAY_RETENTION_DAYS', 35);
const PARALLEL = num('SEED_PARALLEL', 3);
const CHUNK = 5000;
const DAY_MS = 86_400_000;
const YEAR_DAYS = 365;
const FILES_PER_OWNER = 6;
const PAGE_SECONDS = 10;

const dayOf = (ms) => new Date(ms).toISOString().slice(0, 10);
const today = Date.parse(`${dayOf(Date.now())}T00:00:00Z`);
const checksumOf = (ids) =>
  createHash('sha256')
    .update([...ids].sort().join('\n'))
    .digest('hex');

// a small seeded generator: the same history each run, apart from the ids
let state = 0x9e3779b9;
const rnd = () => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 0x100000000;
};
const pick = (list) => list[Math.floor(rnd() * list.length)];

const database = await loadDatabase({ fresh: false, say });
const client = new MongoClient(database.url);
const started = Date.now();
let inserted = 0;
let lastSaid = 0;
const progress = (label, force = false) => {
  if (!force && Date.now() - lastSaid < 5000) return;
  lastSaid = Date.now();
  const s = (Date.now() - started) / 1000;
  say(`${label}: ${inserted.toLocaleString('en')} documents in ${s.toFixed(0)} s (${Math.round(inserted / s)}/s)`);
};

try {
  await client.connect();
  const db = client.db('pagecast_screens');
  // unordered bulk inserts, PARALLEL at once (FerretDB on SQLite takes one writer at a time; the others wait ready)
  const inFlight = new Set();
  const insert = async (collection, docs) => {
    if (docs.length === 0) return;
    while (inFlight.size >= PARALLEL) await Promise.race(inFlight);
    const p = db
      .collection(collection)
      .insertMany(docs, { ordered: false })
      .then(() => {
        inserted += docs.length;
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  const drain = () => Promise.all(inFlight);

  // the members, their files and their screens (unpaired a moment ago, a year after pairing)
  const owners = Array.from({ length: OWNERS }, () => `seed-${randomUUID()}`);
  const filesOf = new Map(
    owners.map((o) => [o, Array.from({ length: FILES_PER_OWNER }, () => `file-${randomUUID()}`)]),
  );
  const yearAgo = today - YEAR_DAYS * DAY_MS;
  const screens = Array.from({ length: SCREENS }, (_, i) => {
    const ownerId = owners[i % OWNERS];
    return {
      _id: randomUUID(),
      ownerId,
      deviceId: randomUUID(),
      pairingId: randomUUID(),
      name: `Seeded ${i + 1}`,
      timeZone: 'UTC',
      assignment: { kind: 'file', fileId: filesOf.get(ownerId)[0] },
      assignmentSeq: 52,
      pairedAt: new Date(yearAgo - DAY_MS),
      revokedAt: new Date(),
    };
  });
  await insert('screens', screens);
  await insert(
    'screen_files',
    owners.flatMap((ownerId) =>
      filesOf.get(ownerId).map((fileId) => ({
        _id: fileId,
        ownerId,
        pageCount: 2,
        pageSeconds: PAGE_SECONDS,
        deletedAt: null,
      })),
    ),
  );

  // assignment history (a change a week), takeovers (one a month per member) and incidents (a few a month a screen)
  let history = [];
  let incidents = [];
  for (const s of screens) {
    for (let n = 0; n <= 52; n++) {
      history.push({
        _id: `${s._id}#${n}`,
        screenId: s._id,
        seq: n,
        at: new Date(yearAgo + n * 7 * DAY_MS),
        assignment: { kind: 'file', fileId: pick(filesOf.get(s.ownerId)) },
      });
    }
    for (let k = 0; k < 36; k++) {
      const since = yearAgo + Math.floor(rnd() * YEAR_DAYS * DAY_MS);
      const state = pick(['offline', 'broken', 'frozen', 'wrong']);
      incidents.push({
        _id: randomUUID(),
        screenId: s._id,
        ownerId: s.ownerId,
        state,
        startedAt: new Date(since),
        openedAt: new Date(since + 5 * 60_000),
        endedAt: new Date(since + 35 * 60_000),
        endedBy: 'recovered',
        alertedAt: new Date(since + 6 * 60_000),
        recoveryAlertedAt: new Date(since + 36 * 60_000),
        unsettled: false,
      });
    }
    if (history.length >= CHUNK) {
      await insert('screen_assignments', history);
      history = [];
    }
    if (incidents.length >= CHUNK) {
      await insert('screen_incidents', incidents);
      incidents = [];
    }
    progress('history and incidents');
  }
  await insert('screen_assignments', history);
  await insert('screen_incidents', incidents);
  const takeovers = owners.flatMap((ownerId) =>
    Array.from({ length: 12 }, (_, m) => {
      const at = yearAgo + m * 30 * DAY_MS;
      const id = randomUUID();
      const screenIds = screens.filter((s) => s.ownerId === ownerId).map((s) => s._id);
      const content = { kind: 'message', title: 'Closed for stocktaking', body: '' };
      return [
        {
          _id: `${id}:start`,
          takeoverId: id,
          ownerId,
          action: 'start',
          at: new Date(at),
          by: ownerId,
          screenIds,
          content,
        },
        {
          _id: `${id}:end`,
          takeoverId: id,
          ownerId,
          action: 'end',
          at: new Date(at + 3_600_000),
          by: null,
          screenIds,
          content,
        },
      ];
    }).flat(),
  );
  await insert('screen_takeover_log', takeovers);

  // the year's rollups: the days before the retention sealed by compaction, with their markers
  const retentionStart = today - RETENTION_DAYS * DAY_MS;
  const perScreenDay = Math.max(1, Math.round(RECORDS / (SCREENS * RETENTION_DAYS)));
  let rollups = [];
  let markers = [];
  for (let t = yearAgo; t < retentionStart; t += DAY_MS) {
    const day = dayOf(t);
    let dayRecords = 0;
    let daySeconds = 0;
    for (const ownerId of owners) {
      const mine = screens.filter((s) => s.ownerId === ownerId);
      const rows = [];
      const byFile = new Map();
      for (const s of mine) {
        for (const fileId of filesOf.get(ownerId).slice(0, 3)) {
          const n = Math.round(perScreenDay / 3);
          rows.push({ a: s._id, b: fileId, n, s: n * PAGE_SECONDS });
          byFile.set(fileId, (byFile.get(fileId) ?? 0) + n);
        }
      }
      const records = rows.reduce((n, r) => n + r.n, 0);
      dayRecords += records;
      daySeconds += records * PAGE_SECONDS;
      const sealed = (n) => ({
        records: n,
        seconds: n * PAGE_SECONDS,
        checksum: checksumOf([`${ownerId}:${day}`]),
        at: new Date(),
      });
      rollups.push({
        _id: `owner:${ownerId}:${day}`,
        kind: 'owner',
        of: ownerId,
        day,
        seq: 0,
        rows,
        sealed: sealed(records),
      });
      for (const [fileId, n] of byFile) {
        rollups.push({
          _id: `file:${fileId}:${day}`,
          kind: 'file',
          of: fileId,
          day,
          seq: 0,
          rows: [{ a: ownerId, b: '', n, s: n * PAGE_SECONDS }],
          sealed: sealed(n),
        });
      }
    }
    markers.push({
      _id: day,
      records: dayRecords,
      refused: 0,
      seconds: daySeconds,
      checksum: checksumOf([day]),
      rollups: OWNERS * 4,
      differing: 0,
      sealedAt: new Date(),
      doneAt: new Date(),
    });
    if (rollups.length >= 500) {
      await insert('play_rollups', rollups);
      rollups = [];
    }
    progress('rollups of the year');
  }
  await insert('play_rollups', rollups);
  await insert('play_compactions', markers);
  rollups = [];
  markers = [];

  // inside the retention: raw records, and rollups that agree with them
  let plays = [];
  let refusals = [];
  let raw = 0;
  for (let t = retentionStart; t < today + DAY_MS && raw < RECORDS; t += DAY_MS) {
    const day = dayOf(t);
    const owner = new Map();
    const file = new Map();
    const refused = new Map();
    const add = (map, key, init, n, s) => {
      const r = map.get(key) ?? init;
      r.n += n;
      r.s = Math.round((r.s + s) * 1000) / 1000;
      map.set(key, r);
    };
    for (const s of screens) {
      const files = filesOf.get(s.ownerId).slice(0, 3);
      for (let k = 0; k < perScreenDay && raw < RECORDS; k++, raw++) {
        const start = t + 8 * 3_600_000 + k * (PAGE_SECONDS + 1) * 1000;
        if (start > Date.now() - 60_000) break;
        const fileId = files[k % files.length];
        const base = {
          _id: randomUUID(),
          screenId: s._id,
          ownerId: s.ownerId,
          fileId,
          page: 1 + (k % 2),
          startedAt: new Date(start),
          day,
          receivedAt: new Date(start + 60_000),
          seconds: PAGE_SECONDS,
        };
        if (k % 100 === 99) {
          refusals.push({ ...base, reason: 'not-assigned' });
          add(
            refused,
            `${s.ownerId}|${s._id}`,
            { a: s._id, b: 'not-assigned', n: 0, s: 0, of: s.ownerId },
            1,
            PAGE_SECONDS,
          );
        } else {
          plays.push({ ...base, claimedSeconds: PAGE_SECONDS, pageSeconds: PAGE_SECONDS });
          add(
            owner,
            `${s.ownerId}|${s._id}|${fileId}`,
            { a: s._id, b: fileId, n: 0, s: 0, of: s.ownerId },
            1,
            PAGE_SECONDS,
          );
          add(file, `${fileId}|${s.ownerId}`, { a: s.ownerId, b: '', n: 0, s: 0, of: fileId }, 1, PAGE_SECONDS);
        }
        if (plays.length >= CHUNK) {
          await insert('plays', plays);
          plays = [];
        }
        if (refusals.length >= CHUNK) {
          await insert('play_refusals', refusals);
          refusals = [];
        }
      }
      progress(`raw records (${raw.toLocaleString('en')} of ${RECORDS.toLocaleString('en')})`);
    }
    const docs = new Map();
    for (const [kind, map] of [
      ['owner', owner],
      ['file', file],
      ['refused', refused],
    ]) {
      for (const { of, ...row } of map.values()) {
        const id = `${kind}:${of}:${day}`;
        const doc = docs.get(id) ?? { _id: id, kind, of, day, seq: 0, rows: [] };
        doc.rows.push(row);
        docs.set(id, doc);
      }
    }
    await insert('play_rollups', [...docs.values()]);
  }
  await insert('plays', plays);
  await insert('play_refusals', refusals);
  await drain();
  // its rollups are made: the service's one-time pass folding the raw records into rollups has nothing to do
  await db
    .collection('screen_migrations')
    .updateOne(
      { _id: 'play-rollups-v1' },
      { $setOnInsert: { token: randomUUID(), at: new Date(), expire: null, data: null } },
      { upsert: true },
    );
  progress('done', true);
  say(
    `a year of history for ${SCREENS.toLocaleString('en')} screens of ${OWNERS} members: ${raw.toLocaleString('en')} raw ` +
      `records inside ${RETENTION_DAYS} days, ${YEAR_DAYS - RETENTION_DAYS} sealed days of rollups, ` +
      `${(SCREENS * 53).toLocaleString('en')} assignment entries, ${(SCREENS * 36).toLocaleString('en')} incidents, ` +
      `${OWNERS * 12} takeovers; ${((Date.now() - started) / 1000).toFixed(0)} s. Run the load on it: npm run load -- screens`,
  );
} finally {
  await client.close();
  await database.stop();
}
