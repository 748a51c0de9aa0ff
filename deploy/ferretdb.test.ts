// The test profile's FerretDB is our build (scripts/lib/tools.mjs, patches pc1 to pc4): lookups by _id use the _id index,
// alone or with other conditions, for one id or a list of them ($in). Unpatched, FerretDB's SQLite backend wrote its _id condition in a form SQLite does
// not match with the index, so every find, update and delete by _id read the whole table (a login's member read cost
// FerretDB 30 ms of CPU among 20,000 members instead of 0.3 ms), and a filter naming _id and more was never narrowed
// by _id at all (a session check, a conditional update by id).
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { infraEnv } from '../scripts/lib/infra.mjs';

const env = infraEnv('test', {});
let conn: mongoose.Connection;
const db = () => {
  if (!conn?.db) throw new Error('not connected');
  return conn.db;
};

beforeAll(async () => {
  conn = await mongoose
    .createConnection(env.MONGO_URL, { dbName: `ferretdb_check_${Date.now().toString(36)}` })
    .asPromise();
});
afterAll(async () => {
  await conn?.dropDatabase();
  await conn?.close();
});

describe("the test profile's FerretDB", () => {
  it('plans a find by _id as a search of the _id index, not a scan of the table', async () => {
    const docs = db().collection<{ _id: string; n: number }>('docs');
    await docs.insertMany(Array.from({ length: 50 }, (_, n) => ({ _id: `d${n}`, n })));
    const explained = await db().command({ explain: { find: 'docs', filter: { _id: 'd7' } } });
    const plan = (explained.queryPlanner?.Plan ?? []).join('\n');
    // On failure: a FerretDB built before the patch is still running. `npm run infra -- down --profile test`.
    expect(plan).toMatch(/SEARCH \S+ USING INDEX \S+__id_/);
    expect(plan).not.toMatch(/\bSCAN\b/);
  });

  it('plans a filter naming _id and other fields as a search of the _id index too', async () => {
    const docs = db().collection<{ _id: string; n: number }>('pairs');
    await docs.insertMany(Array.from({ length: 50 }, (_, n) => ({ _id: `p${n}`, n })));
    for (const filter of [
      { _id: 'p7', n: { $gt: 3 } },
      { n: 7, _id: 'p7' },
      { _id: 'p7', $or: [{ n: 7 }, { n: 8 }] },
    ]) {
      const explained = await db().command({ explain: { find: 'pairs', filter } });
      const plan = (explained.queryPlanner?.Plan ?? []).join('\n');
      expect(plan, JSON.stringify(filter)).toMatch(/SEARCH \S+ USING INDEX \S+__id_/);
      expect(plan, JSON.stringify(filter)).not.toMatch(/\bSCAN\b/);
    }
  });

  it('plans a filter on a list of ids ($in) as searches of the _id index', async () => {
    const docs = db().collection<{ _id: string; n: number }>('lists');
    await docs.insertMany(Array.from({ length: 50 }, (_, n) => ({ _id: `l${n}`, n })));
    for (const filter of [{ _id: { $in: ['l3', 'l7', 'l9'] } }, { _id: { $in: ['l3'] }, n: 3 }]) {
      const explained = await db().command({ explain: { find: 'lists', filter } });
      const plan = (explained.queryPlanner?.Plan ?? []).join('\n');
      expect(plan, JSON.stringify(filter)).toMatch(/SEARCH \S+ USING INDEX \S+__id_/);
      expect(plan, JSON.stringify(filter)).not.toMatch(/\bSCAN\b/);
    }
    // What the list cannot say as one index search stays a scan (and stays right: next test).
    const mixed = await db().command({ explain: { find: 'lists', filter: { _id: { $in: ['l3', 7] } } } });
    expect((mixed.queryPlanner?.Plan ?? []).join('\n')).toMatch(/\bSCAN\b/);
  });

  it('finds, updates and deletes exactly the listed ids ($in), with any other condition', async () => {
    const docs = db().collection<{ _id: string | number; n: number; seen?: boolean }>('listed');
    await docs.insertMany([...Array.from({ length: 100 }, (_, n) => ({ _id: `i${n}`, n })), { _id: 7, n: -7 }]);
    const ids = async (filter: object) =>
      (await docs.find(filter).toArray()).map((d) => d._id).sort((a, b) => String(a).localeCompare(String(b)));
    expect(await ids({ _id: { $in: ['i5', 'i50', 'i500', 'i5'] } })).toEqual(['i5', 'i50']);
    expect(await ids({ _id: { $in: ['i5', 'i6'] }, n: 6 })).toEqual(['i6']);
    expect(await ids({ _id: { $in: ['i5', 7] } })).toEqual([7, 'i5']);
    expect(await ids({ _id: { $in: [] } })).toEqual([]);
    expect(await ids({ _id: { $in: ['i1', 'i2'], $ne: 'i1' } })).toEqual(['i2']);
    expect(
      (await docs.updateMany({ _id: { $in: ['i8', 'i9', 'nope'] } }, { $set: { seen: true } })).modifiedCount,
    ).toBe(2);
    expect(await ids({ seen: true })).toEqual(['i8', 'i9']);
    expect((await docs.deleteMany({ _id: { $in: ['i1', 'i2', 'i3'] }, n: { $gt: 1 } })).deletedCount).toBe(2);
    expect(await docs.countDocuments({})).toBe(99);
    expect(await ids({ _id: { $in: ['i1', 'i2', 'i3'] } })).toEqual(['i1']);
  });

  it('applies every condition beside _id: finds, updates and deletes only when all of them hold', async () => {
    const docs = db().collection<{ _id: string; n: number; at: Date; seen?: boolean }>('conditional');
    const at = new Date('2026-01-01T00:00:00Z');
    await docs.insertMany(Array.from({ length: 100 }, (_, n) => ({ _id: `c${n}`, n, at })));
    expect(await docs.findOne({ _id: 'c5', n: 5 })).toEqual({ _id: 'c5', n: 5, at });
    expect(await docs.findOne({ _id: 'c5', n: 6 })).toBeNull();
    expect(await docs.findOne({ _id: 'c5', at: { $gt: at } })).toBeNull();
    expect(await docs.findOne({ _id: 'c5', $or: [{ n: 4 }, { n: 5 }] })).not.toBeNull();
    // The conditional update of a read model: an older event must not win.
    const older = new Date(at.getTime() - 1000);
    expect((await docs.updateOne({ _id: 'c9', at: { $lte: older } }, { $set: { seen: true } })).matchedCount).toBe(0);
    expect((await docs.updateOne({ _id: 'c9', at: { $lte: at } }, { $set: { seen: true } })).matchedCount).toBe(1);
    expect(await docs.countDocuments({ seen: true })).toBe(1);
    expect((await docs.deleteOne({ _id: 'c3', n: 4 })).deletedCount).toBe(0);
    expect((await docs.deleteOne({ _id: 'c3', n: 3 })).deletedCount).toBe(1);
    expect(await docs.countDocuments({})).toBe(99);
    expect(
      await docs.findOneAndUpdate({ _id: 'c4', n: { $gte: 4 } }, { $set: { n: 40 } }, { returnDocument: 'after' }),
    ).toEqual({ _id: 'c4', n: 40, at });
    expect(await docs.findOneAndUpdate({ _id: 'c4', n: 4 }, { $set: { n: 41 } })).toBeNull();
  });

  it('still finds, updates and deletes exactly the document named by _id', async () => {
    const docs = db().collection<{ _id: string; n: number; seen?: boolean }>('rows');
    await docs.insertMany(Array.from({ length: 300 }, (_, n) => ({ _id: `r${n}`, n })));
    expect(await docs.findOne({ _id: 'r123' })).toEqual({ _id: 'r123', n: 123 });
    expect(await docs.findOne({ _id: 'r300' })).toBeNull();
    expect((await docs.updateOne({ _id: 'r42' }, { $set: { seen: true } })).modifiedCount).toBe(1);
    expect(await docs.countDocuments({ seen: true })).toBe(1);
    expect((await docs.findOne({ _id: 'r42' }))?.seen).toBe(true);
    expect((await docs.deleteOne({ _id: 'r7' })).deletedCount).toBe(1);
    expect(await docs.countDocuments({})).toBe(299);
    expect(await docs.findOne({ _id: 'r7' })).toBeNull();
    expect(await docs.findOne({ _id: 'r8' })).toEqual({ _id: 'r8', n: 8 });
  });
});
