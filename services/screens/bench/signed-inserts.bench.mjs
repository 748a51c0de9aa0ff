// Signed play batches' inserts (data/signed-plays.ts): a fleet's batches arrive one after another, not together, so
// without waiting each was an insert of its own, one SQLite transaction each behind FerretDB. This sends the same
// steady flow of batches (one display's batch every 1/RATE s, each a real six-record batch document) through the
// repository with its insert waiting under load (20 ms, as the service runs) and without (0), alternated, and reads
// FerretDB's CPU from /proc over each pass: its CPU per batch, and the inserts made. The test profile's FerretDB runs
// nothing else meanwhile. Figures only; it never fails on time.
//   env $(node scripts/infra.mjs env --profile test) node --import tsx services/screens/bench/run.mjs signed
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { percentile, processTree } from '../../../scripts/lib/stats.mjs';
import { createSignedPlayRepository } from '../src/data/signed-plays.ts';

const RATE = Number(process.env.BENCH_SIGNED_RATE ?? 150);
const SECONDS = Number(process.env.BENCH_SIGNED_SECONDS ?? 10);
/** passes of each arm, alternated; the first pair is a warm-up */
const REPS = Number(process.env.BENCH_REPS ?? 4);

/** FerretDB's CPU so far (ms): the process listening where MONGO_URL points, from /proc (scripts/lib/stats.mjs) */
function ferretCpuMs(mongoUrl) {
  const { host } = new URL(mongoUrl);
  const ms = processTree((p) => p.cmd.includes('ferretdb') && p.cmd.includes(`--listen-addr=${host}`));
  if (!(ms > 0)) throw new Error(`no FerretDB process listening on ${host} (this bench reads its CPU from /proc)`);
  return ms;
}

const batchOf = (i) => {
  const keyId = `bench-${randomUUID()}`;
  const start = Date.now() - 60_000;
  const records = Array.from({ length: 6 }, (_, r) => ({
    id: randomUUID(),
    fileId: `file-${i % 20}`,
    page: r + 1,
    startedAt: new Date(start + r * 10_000).toISOString(),
    seconds: 10,
  }));
  return {
    _id: `${keyId}#1`,
    keyId,
    seq: 1,
    prev: '',
    hash: randomUUID().replaceAll('-', ''),
    sentAt: new Date().toISOString(),
    signature: 'x'.repeat(86),
    records,
    screenId: randomUUID(),
    ownerId: randomUUID(),
    fileIds: [...new Set(records.map((r) => r.fileId))],
    firstStart: new Date(start),
    lastStart: new Date(start + 50_000),
    receivedAt: new Date(),
    arrival: 'in-order',
  };
};

export async function benchSignedInserts({ log = () => {} } = {}) {
  const url = process.env.MONGO_URL;
  if (!url) throw new Error('MONGO_URL is not set (the test profile: node scripts/infra.mjs env --profile test)');
  ferretCpuMs(url); // there, before anything is sent
  const conn = await mongoose.createConnection(url, { dbName: `bench_signed_${process.pid}` }).asPromise();
  const results = { 20: [], 0: [] };
  try {
    for (let rep = 0; rep < REPS; rep++) {
      for (const linger of rep % 2 === 0 ? [0, 20] : [20, 0]) {
        const repo = createSignedPlayRepository(conn, { insertLingerMs: linger });
        const n = RATE * SECONDS;
        const writes0 = repo.insertWrites();
        const cpu0 = ferretCpuMs(url);
        const t0 = Date.now();
        const pending = [];
        for (let i = 0; i < n; i++) {
          const due = t0 + (i * 1000) / RATE;
          const wait = due - Date.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          pending.push(repo.insert(batchOf(i)));
        }
        await Promise.all(pending);
        const cpu = ferretCpuMs(url) - cpu0;
        const writes = repo.insertWrites() - writes0;
        if (rep > 0) results[linger].push({ cpuPerBatch: cpu / n, writes, batches: n });
        log(
          `pass ${rep + 1}, wait ${linger} ms: ${n} batches, ${writes} inserts, FerretDB ${(cpu / n).toFixed(3)} ms per batch`,
        );
      }
    }
  } finally {
    await conn.dropDatabase().catch(() => undefined);
    await conn.close();
  }
  const median = (xs) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    );
  return [20, 0].map((linger) => ({
    label: linger ? 'insert waits 20 ms under load (as run)' : 'each batch inserted at once',
    batchesPerSecond: RATE,
    insertsPerBatch: Number((median(results[linger].map((r) => r.writes / r.batches)) ?? 0).toFixed(3)),
    ferretdbMsPerBatch: Number((median(results[linger].map((r) => r.cpuPerBatch)) ?? 0).toFixed(3)),
  }));
}
