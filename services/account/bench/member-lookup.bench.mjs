// A login's member lookup among many members: by the stored address -> id hint (two reads by _id), against the
// lookup by address that every login paid after a restart before the hints (FerretDB scans `users` for a filter on
// `email`, unique index or not). Each lookup goes through a new repository, so no in-memory hint helps: what
// another replica, or this one after a restart, pays for a member's first login. FerretDB's CPU per lookup is read
// from Linux's /proc. Figures only: it never fails on time.
import { performance } from 'node:perf_hooks';
import { testEnv } from '@pagecast/service-kit/testing';
import mongoose from 'mongoose';
import { processTree, summarize } from '../../../scripts/lib/stats.mjs';
import { createUserRepository } from '../src/data/users.ts';
import { storedMember } from './account-process.mjs';

export async function benchMemberLookup({ log = console.log, members = 20_000, lookups = 20, hintLookups = 500 } = {}) {
  const env = testEnv();
  const port = new URL(env.MONGO_URL).port;
  const ferretCpu = () => processTree((p) => p.cmd.includes('ferretdb') && p.cmd.includes(`:${port}`));
  const dbName = `account_lookup_bench_${Date.now().toString(36)}`;
  const conn = await mongoose.createConnection(env.MONGO_URL, { dbName }).asPromise();
  try {
    const seed = createUserRepository(conn);
    await seed.model.createCollection();
    await seed.model.createIndexes();
    const emailOf = (i) => `member-${i}@example.com`;
    const now = new Date();
    for (let i = 0; i < members; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, members - i) }, (_, j) =>
        storedMember(`member-${i + j}`, emailOf(i + j), now),
      );
      await seed.model.collection.insertMany(batch);
      // The hints as the repository stores them: { _id: address, userId }.
      await seed.hintModel.collection.insertMany(batch.map((u) => ({ _id: u.email, userId: u._id })));
    }
    const picked = new Set();
    // More lookups by hint than by address: at a few tenths of a ms of FerretDB's CPU each, 20 of them stayed below
    // one /proc tick (10 ms) and printed 0.00.
    while (picked.size < Math.min(Math.max(lookups, hintLookups), members)) {
      picked.add(Math.floor(Math.random() * members));
    }
    const hintPicks = [...picked];
    // By hint: a login's lookup. By address: the lookup logins made without a hint before they stopped (findForLogin
    // no longer does: it answered an unknown address a scan later), which findByEmail still makes without one.
    const byHint = (users, email) => users.findForLogin(email);
    const byAddress = (users, email) => users.model.findOne({ email }).lean();
    const run = async (label, picks, find) => {
      const times = [];
      const cpu0 = ferretCpu();
      const t0 = performance.now();
      for (const i of picks) {
        const users = createUserRepository(conn);
        const s = performance.now();
        const user = await find(users, emailOf(i));
        times.push(performance.now() - s);
        if (user?._id !== `member-${i}`) throw new Error(`lookup of ${emailOf(i)} found ${user?._id}`);
      }
      const seconds = (performance.now() - t0) / 1000;
      const cpu = (ferretCpu() - cpu0) / picks.length;
      return {
        label: `${label} (FerretDB ${Number.isFinite(cpu) ? cpu.toFixed(2) : '-'} ms CPU each)`,
        ...summarize(times, 1, seconds),
      };
    };
    const rows = [await run(`member by stored hint, among ${members}`, hintPicks, byHint)];
    const picks = hintPicks.slice(0, lookups);
    // Without the hints: the address itself, as each first login after a restart did before them.
    rows.push(await run(`member by address (no hint: a scan), among ${members}`, picks, byAddress));
    const [hinted, scanned] = rows;
    log(
      `member lookup among ${members}: by hint p50 ${hinted.p50.toFixed(2)} ms, by address p50 ${scanned.p50.toFixed(1)} ms (${(scanned.p50 / hinted.p50).toFixed(0)}x)`,
    );
    return rows;
  } finally {
    await conn.dropDatabase().catch(() => undefined);
    await conn.close();
  }
}
