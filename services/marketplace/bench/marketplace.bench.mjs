// Marketplace figures, through the real service in-process against the local servers:
// - search p50/p95 over 10,000 listings: page 1 and page 400, a Japanese title word, an English word, a tag, a
//   word and a tag; baseline in the same run: the service's /healthz (HTTP and identity overhead alone);
// - purchases per second through billing's transfer call (billing as its own process), with the books checked
//   afterwards (buyers spent exactly the prices, sellers earned the nets, the platform the fees, one licence each).
// Figures only; it never fails on time.   node --import tsx services/marketplace/bench/run.mjs
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createEvent } from '@pagecast/contracts';
import { signIdentityHeader } from '@pagecast/service-kit';
import { testEnv, uniqueName } from '@pagecast/service-kit/testing';
import { percentile } from '../../../scripts/lib/stats.mjs';
import { loadServiceConfig } from '../src/config.ts';
import { consumerNames } from '../src/events/index.ts';
import { foldTitle } from '../src/domain/search.ts';
import { createServer } from '../src/server.ts';
import { balanceOf, billingEnv, spawnService } from '../test/processes.ts';

const LISTINGS = 10_000;
const words = [
  '東京',
  '大阪',
  'ﾃｽﾄ',
  '夜景',
  '会議資料',
  '研修',
  'Signage',
  'Report',
  'Ｍｅｎｕ',
  'カフェ',
  '営業',
  'Sale',
];
const tags = Array.from({ length: 40 }, (_, i) => `tag${i}`);

async function timed(url, headers, { requests = 300, concurrency = 4 } = {}) {
  const one = async () => {
    const t0 = performance.now();
    const r = await fetch(url, { headers: headers() });
    const body = await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`GET ${url} answered ${r.status}: ${new TextDecoder().decode(body)}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 20; i++) await one();
  const times = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next += 1;
        times.push(await one());
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { requests: times.length, p50: percentile(times, 50), p95: percentile(times, 95) };
}

export async function benchMarketplace({ log = () => {}, purchases = 200 } = {}) {
  const env = {
    ...testEnv(),
    PORT: '0',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    MONGO_DB: uniqueName('mp_bench').replace(/-/g, '_'),
    CONSUMER_PREFIX: uniqueName('mp-bench'),
    EVENTS_DELIVER: 'new',
  };
  const billing = await spawnService('billing', billingEnv());
  const server = await createServer(loadServiceConfig({ ...env, BILLING_URL: billing.url }), { jobs: false });
  const { context } = server;
  const rows = [];
  try {
    log(`seeding ${LISTINGS} listings ...`);
    const now = Date.now();
    const docs = Array.from({ length: LISTINGS }, (_, i) => {
      const title = `${words[i % words.length]} ${words[(i * 7) % words.length]} 資料 ${i}`;
      return {
        _id: randomUUID(),
        sellerId: `bench-seller-${i % 100}`,
        title,
        titleFolded: foldTitle(title),
        publishPrice: [3000, 5000, 10000][i % 3],
        pageCount: 1 + (i % 20),
        displayDuration: 30,
        tags: [tags[i % tags.length], tags[(i * 3) % tags.length]],
        updatedAt: new Date(now - i * 1000),
        listed: true,
        deleted: false,
        version: new Date(now - i * 1000),
      };
    });
    for (let i = 0; i < docs.length; i += 1000) await context.data.models.listings.insertMany(docs.slice(i, i + 1000));

    const member = `bench-member-${randomUUID()}`;
    // signed per request, as the gateway does (a signature is good for 60 s)
    const headers = () => ({
      'x-pagecast-identity': signIdentityHeader({ userId: member, sessionId: 's' }, env.INTERNAL_SECRET),
    });
    const q = (s) => `${server.url}/api/marketplace?${s}`;
    const cases = [
      ['baseline: GET /healthz', `${server.url}/healthz`],
      ['page 1, no filter', q('page=1')],
      ['page 400, no filter', q('page=400')],
      ['title word 夜景 (Japanese)', q(`q=${encodeURIComponent('夜景')}`)],
      ['title word テスト (stored half-width ﾃｽﾄ)', q(`q=${encodeURIComponent('テスト')}`)],
      ['title word report (full/half-width, case)', q('q=report')],
      ['tag', q('tags=tag7')],
      ['title word and tag', q(`q=${encodeURIComponent('東京')}&tags=tag3`)],
      ['title word, page 40', q(`q=${encodeURIComponent('資料')}&page=40`)],
    ];
    for (const [label, url] of cases) {
      const r = await timed(url, headers);
      rows.push({ label, ...r, p50: +r.p50.toFixed(1), p95: +r.p95.toFixed(1) });
      log(`${label}: p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms`);
    }

    // Purchases: buyers opened in billing through account's event, each buys distinct listings.
    const buyers = Array.from({ length: 20 }, () => `bench-buyer-${randomUUID()}`);
    for (const userId of buyers) {
      const e = createEvent('account.user.registered.v1', {
        userId,
        email: `${userId}@example.com`,
        firstName: 'B',
        lastName: 'B',
        membershipTier: 'trial',
        points: 1_000_000,
        registeredAt: new Date(Date.now() - 60_000).toISOString(),
        locale: 'ja',
      });
      await context.nats.js.publish(e.type, JSON.stringify(e), { msgID: e.id });
    }
    for (const userId of buyers) {
      for (let t = 0; (await balanceOf(billing.url, userId).catch(() => -1)) !== 1_000_000; t++) {
        if (t > 300) throw new Error('billing did not open the buyers');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const jobs = Array.from({ length: purchases }, (_, i) => ({ buyer: buyers[i % buyers.length], listing: docs[i] }));
    const sellers = [...new Set(jobs.map((j) => j.listing.sellerId))];
    const sellerBefore = new Map();
    for (const s of sellers) sellerBefore.set(s, await balanceOf(billing.url, s).catch(() => 0));
    const platformBefore = await balanceOf(billing.url, 'platform').catch(() => 0);
    let next = 0;
    let failed = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < jobs.length) {
          const job = jobs[next++];
          const res = await fetch(`${server.url}/api/marketplace/purchase/${job.listing._id}`, {
            method: 'POST',
            headers: {
              'x-pagecast-identity': signIdentityHeader({ userId: job.buyer, sessionId: 's' }, env.INTERNAL_SECRET),
              'content-type': 'application/json',
            },
            body: JSON.stringify({ expectedPrice: job.listing.publishPrice }),
          });
          await res.arrayBuffer();
          if (res.status !== 200) failed++;
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    // The books afterwards.
    const fees = { 3000: 1000, 5000: 1500, 10000: 3000 };
    let buyersOk = 0;
    for (const b of buyers) {
      const spent = jobs.filter((j) => j.buyer === b).reduce((s, j) => s + j.listing.publishPrice, 0);
      if ((await balanceOf(billing.url, b)) === 1_000_000 - spent) buyersOk++;
    }
    let sellersOk = 0;
    for (const s of sellers) {
      const earned = jobs
        .filter((j) => j.listing.sellerId === s)
        .reduce((t, j) => t + j.listing.publishPrice - fees[j.listing.publishPrice], 0);
      if ((await balanceOf(billing.url, s)) === sellerBefore.get(s) + earned) sellersOk++;
    }
    const feeTotal = jobs.reduce((t, j) => t + fees[j.listing.publishPrice], 0);
    const platformOk = (await balanceOf(billing.url, 'platform')) === platformBefore + feeTotal;
    const licences = await context.data.models.licences.countDocuments({});
    rows.push({
      label: `purchases (${purchases}, 8 in flight)`,
      requests: purchases,
      p50: '-',
      p95: '-',
      perSecond: +(purchases / seconds).toFixed(1),
      failed,
      books: `buyers ${buyersOk}/${buyers.length}, sellers ${sellersOk}/${sellers.length}, platform ${platformOk ? 'ok' : 'WRONG'}, licences ${licences}/${purchases}`,
    });
    log(`purchases: ${(purchases / seconds).toFixed(1)}/s, failed ${failed}; ${rows.at(-1).books}`);
    return rows;
  } finally {
    await context.conn.dropDatabase().catch(() => {});
    for (const [stream, name] of Object.entries(consumerNames(env.CONSUMER_PREFIX))) {
      await context.nats.jsm.consumers.delete(stream, name).catch(() => {});
    }
    await server.close();
    await billing.kill();
  }
}
