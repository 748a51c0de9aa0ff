// Ledger throughput on this machine's MongoDB-protocol server: billing in-process (its real repositories), 50
// members appended to concurrently (one writer per member, credits and spends), beside the same run's plain insert
// rate of the database (the ceiling: one insert per operation, no read), then one hot account with 50 writers (the
// optimistic retry under contention), then the invariant check. Figures only: it never fails on time.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { removeDurables, testEnv, uniqueName } from '@pagecast/service-kit/testing';
import { percentile } from '../../../scripts/lib/stats.mjs';
import { loadServiceConfig } from '../src/config.ts';
import { createServer } from '../src/server.ts';
import { postEntry } from '../src/use-cases/post-entry.ts';

const MEMBERS = 50;
const PER_MEMBER = Number(process.env.LEDGER_BENCH_OPS ?? 40);

async function timed(workers, perWorker, one) {
  const times = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let i = 0; i < perWorker; i++) {
        const s = performance.now();
        await one(w, i);
        times.push(performance.now() - s);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  times.sort((a, b) => a - b);
  return {
    requests: times.length,
    concurrency: workers,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    rps: times.length / seconds,
  };
}

export async function benchLedger({ log }) {
  const env = {
    ...testEnv(),
    ...process.env,
    PORT: '0',
    LOG_LEVEL: 'silent',
    MONGO_DB: uniqueName('billing_bench').replace(/-/g, '_'),
    CONSUMER_PREFIX: uniqueName('billing-bench'),
    EVENTS_DELIVER: 'new',
    JOBS_INTERVAL_MS: '0',
    STRIPE_SECRET_KEY: '',
  };
  const server = await createServer(loadServiceConfig(env));
  const ctx = server.context;
  try {
    const members = Array.from({ length: MEMBERS }, () => randomUUID());
    const raw = ctx.conn.db.collection('bench_plain_inserts');
    const rows = [];
    rows.push({
      label: 'plain insert (the ceiling)',
      ...(await timed(MEMBERS, PER_MEMBER, () => raw.insertOne({ _id: randomUUID(), at: new Date() }))),
    });
    let issued = 0;
    let spent = 0;
    rows.push({
      label: 'ledger append, 50 members',
      ...(await timed(MEMBERS, PER_MEMBER, async (w, i) => {
        const amount = i % 3 === 2 ? -500 : 1000;
        const res = await postEntry(ctx, {
          accountId: members[w],
          amount,
          type: amount > 0 ? 'purchase' : 'spend',
          description: 'bench',
          key: randomUUID(),
        });
        if (res.status !== 'applied') return;
        if (amount > 0) issued += amount;
        else spent -= amount;
      })),
    });
    const hot = randomUUID();
    rows.push({
      label: 'ledger append, 1 account, 50 writers',
      ...(await timed(MEMBERS, Math.max(2, Math.floor(PER_MEMBER / 4)), async () => {
        await postEntry(ctx, {
          accountId: hot,
          amount: 100,
          type: 'purchase',
          description: 'bench',
          key: randomUUID(),
        });
        issued += 100;
      })),
    });
    // The invariants: each balance is the sum of its entries, never below zero; the total is issued − spent.
    const entries = await ctx.data.ledger.all();
    const byAccount = new Map();
    for (const e of entries) byAccount.set(e.accountId, [...(byAccount.get(e.accountId) ?? []), e]);
    // Only this run's accounts count: on shared servers, other runs' registrations open accounts here too.
    const known = new Set([...members, hot]);
    let total = 0;
    let ok = true;
    for (const [account, list] of byAccount) {
      list.sort((a, b) => a.seq - b.seq);
      let sum = 0;
      for (const [i, e] of list.entries()) {
        sum += e.amount;
        if (e.seq !== i + 1 || e.balance !== sum || sum < 0) ok = false;
      }
      if (known.has(account)) total += sum;
    }
    const keys = new Set(entries.map((e) => e.key));
    const indexes = (await ctx.conn.db.collection('point_transactions').indexes()).map((i) => i.name);
    log(`indexes: ${indexes.join(', ')}; entries with a repeated key: ${entries.length - keys.size}`);
    const strangers = entries.filter((e) => !known.has(e.accountId));
    log(`accounts: ${byAccount.size}; entries of other accounts: ${strangers.length}; database ${env.MONGO_DB}`);
    if (process.env.LEDGER_BENCH_DEBUG) log(JSON.stringify(strangers.slice(0, 3)));
    const fmt = (n, d = 1) => Number(n).toFixed(d);
    log('label\trequests\tconcurrency\tp50 ms\tp95 ms\tp99 ms\tops/s');
    for (const r of rows)
      log([r.label, r.requests, r.concurrency, fmt(r.p50), fmt(r.p95), fmt(r.p99), fmt(r.rps, 0)].join('\t'));
    log(
      `invariants: ${ok && total === issued - spent ? 'hold' : 'BROKEN'} (${entries.length} entries, total ${total} = issued ${issued} − spent ${spent})`,
    );
    return rows;
  } finally {
    await ctx.conn.dropDatabase().catch(() => {});
    await removeDurables(ctx.nats.jsm, env.CONSUMER_PREFIX);
    await server.close();
  }
}
