// The test profile's FerretDB is our build (scripts/lib/tools.mjs, patch pc1): lookups by _id use the _id index.
// Unpatched, FerretDB's SQLite backend wrote its _id condition in a form SQLite does not match with the index, so every
// find, update and delete by _id read the whole table: a login's member read cost FerretDB 30 ms of CPU among 20,000
// members instead of 0.3 ms.
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { infraEnv } from '../scripts/lib/infra.mjs';

const env = infraEnv('test', {});
let conn: mongoose.Connection;

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
    const docs = conn.db!.collection<{ _id: string; n: number }>('docs');
    await docs.insertMany(Array.from({ length: 50 }, (_, n) => ({ _id: `d${n}`, n })));
    const explained = await conn.db!.command({ explain: { find: 'docs', filter: { _id: 'd7' } } });
    const plan = (explained.queryPlanner?.Plan ?? []).join('\n');
    // On failure: a FerretDB built before the patch is still running. `npm run infra -- down --profile test`.
    expect(plan).toMatch(/SEARCH \S+ USING INDEX \S+__id_/);
    expect(plan).not.toMatch(/\bSCAN\b/);
  });

  it('still finds, updates and deletes exactly the document named by _id', async () => {
    const docs = conn.db!.collection<{ _id: string; n: number; seen?: boolean }>('rows');
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
