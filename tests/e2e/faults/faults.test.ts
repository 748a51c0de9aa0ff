// Faults mid-journey (README, "Replicas"): two gateways behind nginx and two of each service, on the
// clustered engines (three NATS nodes, four MinIO nodes). While members register, convert, buy points by card, sell and
// buy on the marketplace, pair screens and report plays, one process at a time is killed (SIGKILL) and started again:
// a gateway, one replica of each service, a NATS node, a MinIO node. Afterwards: every journey completed, the books
// balance, every fact that must be handled once was, every page image is readable and every screen kept its content.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
// @ts-expect-error: plain JavaScript module without types
import { killServer, up } from '../../../scripts/lib/infra.mjs';
// @ts-expect-error: plain JavaScript module without types
import { startStack } from '../../../scripts/lib/stack.mjs';
import { faultsPort } from '../global-setup-faults';
import { corpus } from '../test/player-helpers';

const base = `http://localhost:${faultsPort}`;
const t0 = Date.now();
const timeline: string[] = [];
const note = (line: string) => {
  const entry = `+${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s  ${line}`;
  timeline.push(entry);
  process.stdout.write(`[faults] ${entry}\n`);
};

// The clustered engines: the stack's up() starts them when these are not given (scripts/lib/infra.mjs).
for (const k of ['NATS_URL', 'S3_ENDPOINT', 'NATS_REPLICAS']) delete process.env[k];
process.env.PAGECAST_CLUSTER = '1';
const clusterEnv = { ...process.env } as NodeJS.ProcessEnv;

interface Stack {
  env: Record<string, string>;
  processes: Array<{ name: string; pid: number }>;
  /** SIGKILLs the named process (`billing-2`), starts it again on its port and resolves with its new pid once ready */
  restart(name: string): Promise<number>;
  stop(): Promise<void>;
}
let stack: Stack | undefined;
const engineRestarts: Array<{ stop(): Promise<void> }> = [];
const upEngines = up as (opts: Record<string, unknown>) => Promise<{ stop(): Promise<void> }>;

async function until<T>(what: string, f: () => Promise<T | undefined>, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await f();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${what}: not within ${ms / 1000} s (${last instanceof Error ? last.message : String(last)})`);
}

/**
 * One HTTP call through nginx. A request that was in flight in the process being killed ends in a 502 or a reset
 * connection: it is sent again, as a client would (every call the journeys make is safe to repeat: the purchases
 * carry their keys). What the server answered last is returned.
 */
async function send(path: string, init: RequestInit & { cookie?: string } = {}): Promise<Response> {
  const { cookie, ...rest } = init;
  let last = '';
  for (let attempt = 0; attempt < 40; attempt++) {
    try {
      const res = await fetch(`${base}${path}`, {
        ...rest,
        headers: { ...(cookie ? { cookie } : {}), ...(rest.headers as Record<string, string>) },
        signal: AbortSignal.timeout(60_000),
      });
      if (![502, 503, 504].includes(res.status)) {
        resent.set(res, attempt);
        return res;
      }
      last = `${res.status} ${await res.text()}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    retries.count += 1;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${init.method ?? 'GET'} ${path}: still failing (${last})`);
}
const retries = { count: 0 };
/** How many times a call's answer was sent again before this answer. */
const resent = new WeakMap<Response, number>();

async function json<T>(
  path: string,
  init: Omit<RequestInit, 'body'> & { cookie?: string; body?: unknown } = {},
): Promise<T> {
  const body = init.body;
  const isForm = body instanceof FormData;
  const res = await send(path, {
    ...init,
    headers: body === undefined || isForm ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

interface Member {
  id: string;
  email: string;
  cookie: string;
}

async function registerAndSignIn(label: string): Promise<Member> {
  const email = `faults-${label}-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'correct horse battery staple';
  const reg = await send('/api/auth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, firstName: 'Taro', lastName: 'Yamada' }),
  });
  // a first attempt made before its answer was lost answers alike (registration tells nothing of taken addresses)
  if (!reg.ok) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const mailUrl = inject('mailUrl');
  const token = await until('the verification e-mail', async () => {
    const mails = (await (await fetch(`${mailUrl}/email`)).json()) as Array<{
      text?: string;
      headers?: { to?: string };
    }>;
    return mails.find((m) => m.headers?.to?.includes(email))?.text?.match(/verify-email\?token=([A-Za-z0-9_-]+)/)?.[1];
  });
  await json('/api/auth/verify-email', { method: 'POST', body: { token } });
  const login = await send('/api/auth/local-login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('pc_session='))
    ?.split(';')[0] as string;
  const me = await json<{ id: string }>('/api/auth/user', { cookie });
  return { id: me.id, email, cookie };
}

interface Page {
  pageNumber: number;
  imagePath: string;
}

async function uploadAndConvert(owner: Member, pdf: string, title: string): Promise<{ id: string; pages: Page[] }> {
  const form = new FormData();
  form.append('pdf', new Blob([readFileSync(corpus(pdf))], { type: 'application/pdf' }), pdf);
  form.append('title', title);
  form.append('displayDuration', '5');
  const created = await json<{ id: string }>('/api/files/upload', { method: 'POST', cookie: owner.cookie, body: form });
  const file = await until(
    `the conversion of ${title}`,
    async () => {
      const now = await json<{ status: string; pageCount: number }>(`/api/files/${created.id}?signage_mode=true`, {
        cookie: owner.cookie,
      });
      if (now.status === 'disabled') throw new Error(`the conversion of ${pdf} failed`);
      return now.status === 'processing' ? undefined : now;
    },
    240_000,
  );
  const pages = await json<Page[]>(`/api/files/${created.id}/pages?signage_mode=true`, { cookie: owner.cookie });
  expect(pages).toHaveLength(file.pageCount);
  return { id: created.id, pages };
}

/** The 10,000-point package paid with the card provider's test card (localstripe), confirmed on the server. */
async function buyPoints(member: Member): Promise<string> {
  const intent = await json<{ paymentIntentId: string }>('/api/create-payment-intent', {
    method: 'POST',
    cookie: member.cookie,
    body: { amount: 10000 },
  });
  await json('/api/points/confirm-payment', {
    method: 'POST',
    cookie: member.cookie,
    body: { paymentIntentId: intent.paymentIntentId, paymentMethodId: 'pm_card_visa' },
  });
  return intent.paymentIntentId;
}

async function pairScreen(owner: Member, fileId: string): Promise<{ screenId: string; device: string }> {
  const started = await json<{ code: string; pairingId: string; pollSecret: string }>('/api/screens/pairing', {
    method: 'POST',
  });
  const screen = await json<{ id: string }>('/api/screens', {
    method: 'POST',
    cookie: owner.cookie,
    body: { code: started.code, name: `faults ${started.code}` },
  });
  const polled = await send(`/api/screens/pairing/${started.pairingId}/poll`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pollSecret: started.pollSecret }),
  });
  if (!polled.ok) throw new Error(`poll: ${polled.status} ${await polled.text()}`);
  const device = polled.headers
    .getSetCookie()
    .find((c) => c.startsWith('pc_device='))
    ?.split(';')[0] as string;
  expect(device).toBeTruthy();
  await json(`/api/screens/${screen.id}`, {
    method: 'PUT',
    cookie: owner.cookie,
    body: { assignment: { kind: 'file', fileId } },
  });
  return { screenId: screen.id, device };
}

/** What one journey made, for the checks afterwards. */
interface Journey {
  lane: number;
  round: number;
  seller: Member;
  buyer: Member;
  listing: { id: string; pages: Page[] };
  paymentIntentId: string;
  purchaseId: string;
  screen: { screenId: string; device: string };
  plays: string[];
  pairedAt: number;
}

const progress = { steps: 0 };
const step = () => {
  progress.steps += 1;
};

async function journey(lane: number, round: number): Promise<Journey> {
  const seller = await registerAndSignIn(`s${lane}${round}`);
  step();
  const buyer = await registerAndSignIn(`b${lane}${round}`);
  step();
  const title = `Faults ${randomUUID().slice(0, 8)}`;
  const listing = await uploadAndConvert(seller, 'vertical.pdf', title);
  step();
  await json(`/api/files/${listing.id}/publish`, {
    method: 'PUT',
    cookie: seller.cookie,
    body: { isPublished: true, publishPrice: 3000, copyrightInfo: { authorName: '山田 花子' } },
  });
  step();
  const paymentIntentId = await buyPoints(buyer);
  step();
  // the buyer finds the listing in the marketplace (it gets there from the publication's event), then buys it
  await until('the listing in the marketplace', async () => {
    const found = await json<{ files: Array<{ id: string }> }>(`/api/marketplace?q=${encodeURIComponent(title)}`, {
      cookie: buyer.cookie,
    });
    return found.files.some((f) => f.id === listing.id) ? true : undefined;
  });
  // A purchase whose first attempt was cut (its answer lost with a killed process) may have gone through: sent again,
  // it is refused as ALREADY_PURCHASED, which a buyer reads as bought. The checks below count purchases and charges.
  const buying = await send(`/api/marketplace/purchase/${listing.id}`, {
    method: 'POST',
    cookie: buyer.cookie,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ expectedPrice: 3000 }),
  });
  const answer = JSON.parse((await buying.text()) || '{}') as { purchaseId?: string; code?: string };
  const boughtBefore = buying.status === 409 && answer.code === 'ALREADY_PURCHASED' && (resent.get(buying) ?? 0) > 0;
  if (!buying.ok && !boughtBefore) throw new Error(`purchase: ${buying.status} ${JSON.stringify(answer)}`);
  const bought = { purchaseId: answer.purchaseId ?? '(answer lost: bought before a resend)' };
  step();
  const screen = await pairScreen(buyer, listing.id);
  // plays count from when the screen was given the file (the same machine's clock as the services')
  const pairedAt = Date.now();
  step();
  // the screen plays what it was given: its manifest lists the bought file, whose pages its device can read
  await until('the screen given the bought file', async () => {
    const me = await json<{ assignment: { kind: string; fileId?: string } }>('/api/screens/device/me', {
      cookie: screen.device,
    });
    return me.assignment.fileId === listing.id ? true : undefined;
  });
  const pages = await until('the bought pages, for the screen', () =>
    json<Page[]>(`/api/files/${listing.id}/pages?signage_mode=true`, { cookie: screen.device }),
  );
  for (const p of pages) {
    const img = await send(p.imagePath, { cookie: screen.device });
    expect(img.status, p.imagePath).toBe(200);
    await img.arrayBuffer();
  }
  step();
  // proof of play: one record per page, after the pairing and ended; each sent twice (the second counts nothing)
  const plays = pages.map((p, i) => ({
    id: randomUUID(),
    fileId: listing.id,
    page: p.pageNumber,
    startedAt: new Date(pairedAt + 1000 + i * 3000).toISOString(),
    seconds: 2,
  }));
  await until('every play record ended', async () =>
    Date.now() > pairedAt + 1000 + plays.length * 3000 ? true : undefined,
  );
  const first = await json<{ accepted: number; duplicates: number; refused: number }>('/api/screens/device/plays', {
    method: 'POST',
    cookie: screen.device,
    body: { plays },
  });
  // a batch whose first answer was lost and was sent again counts its records as duplicates
  expect(first.refused, JSON.stringify(first)).toBe(0);
  expect(first.accepted + first.duplicates).toBe(plays.length);
  const again = await json<{ accepted: number; duplicates: number }>('/api/screens/device/plays', {
    method: 'POST',
    cookie: screen.device,
    body: { plays },
  });
  expect(again).toMatchObject({ accepted: 0, duplicates: plays.length });
  step();
  note(`journey ${lane}.${round} completed`);
  return {
    lane,
    round,
    seller,
    buyer,
    listing,
    paymentIntentId,
    purchaseId: bought.purchaseId,
    screen,
    plays: plays.map((p) => p.id),
    pairedAt,
  };
}

/** SIGKILL one engine node (its whole process group), then up() starts again the members that are not running. */
async function killEngineNode(name: string, kind: 'nats' | 's3') {
  await killServer('test', name);
  note(`killed ${name} (SIGKILL)`);
  engineRestarts.push(await upEngines({ profile: 'test', only: [kind], env: clusterEnv, detached: true }));
  note(`${name} restarted and ready`);
}

beforeAll(async () => {
  note('starting two of everything on the clustered engines');
  stack = (await startStack({
    profile: 'test',
    port: faultsPort,
    replicas: 2,
    quiet: true,
    build: false, // the journeys go through the API; the gateway serves the front ends already built
    env: { RATE_LIMIT_AUTH_MAX: '1000', LOGIN_FAILURES_PER_ADDRESS: '1000' },
  })) as Stack;
  expect(String(stack.env.NATS_URL).split(',')).toHaveLength(3);
  expect(stack.env.NATS_REPLICAS).toBe('3');
  note(`stack ready (${stack.processes.map((p: { name: string }) => p.name).join(', ')})`);
});

afterAll(async () => {
  await stack?.stop();
  for (const r of engineRestarts) await r.stop();
  process.stdout.write(`\n[faults] timeline\n${timeline.map((l) => `  ${l}`).join('\n')}\n`);
});

describe('faults mid-journey', () => {
  it('completes every journey while one process at a time is killed, and the books still balance', async () => {
    if (!stack) throw new Error('no stack');
    const live = stack;
    const victims = [
      'gateway-1',
      'account-2',
      'file-conversion-1',
      'billing-2',
      'marketplace-1',
      'screens-2',
      'nats-2',
      'minio-3',
    ];
    let killing = true;
    let failed = false;
    const killer = (async () => {
      for (const victim of victims) {
        // the next kill waits until the journeys have moved on since the last one
        const seen = progress.steps;
        await until(
          `journeys moving before killing ${victim}`,
          async () => (progress.steps >= seen + 2 || failed ? true : undefined),
          600_000,
        );
        if (failed) break;
        if (victim.startsWith('nats-')) await killEngineNode(victim, 'nats');
        else if (victim.startsWith('minio-')) await killEngineNode(victim, 's3');
        else {
          note(`killing ${victim} (SIGKILL)`);
          const pid = await live.restart(victim);
          note(`${victim} restarted and ready (pid ${pid})`);
        }
      }
      killing = false;
      note('every kill done');
    })();
    // two lanes of journeys, each going on until every kill is done, then one more round (after all kills)
    const lane = async (n: number) => {
      const done: Journey[] = [];
      for (let round = 1; killing || round <= 1; round++) done.push(await journey(n, round));
      done.push(await journey(n, done.length + 1));
      return done;
    };
    // both settle before anything fails, so that no restart is still under way when the stack stops
    const [lanes, kills] = await Promise.allSettled([
      Promise.all([lane(1), lane(2)]).catch((err) => {
        failed = true;
        throw err;
      }),
      killer,
    ]);
    if (lanes.status === 'rejected') throw lanes.reason;
    if (kills.status === 'rejected') throw kills.reason;
    const journeys = lanes.value.flat();
    note(`${journeys.length} journeys completed (${retries.count} calls sent again after a lost answer)`);

    // ---- the checks ----
    const mongoUrl = String(stack.env.MONGO_URL);
    const db = (name: string) => mongoose.createConnection(mongoUrl, { dbName: name }).asPromise();
    const [billing, market, files, screens] = await Promise.all([
      db('pagecast_billing'),
      db('pagecast_marketplace'),
      db('pagecast_file_conversion'),
      db('pagecast_screens'),
    ]);
    try {
      const members = journeys.flatMap((j) => [j.seller, j.buyer]);
      const ids = members.map((m) => m.id);
      type Entry = {
        accountId: string;
        seq: number;
        balance: number;
        amount: number;
        key: string;
        reason: { kind: string } | null;
        paymentIntentId: string | null;
      };
      const entries = (await billing
        .collection('point_transactions')
        .find({ accountId: { $in: ids } })
        .sort({ accountId: 1, seq: 1 })
        .toArray()) as unknown as Entry[];
      // one ledger entry per idempotency key; each member's chain is whole and its balance the sum of its entries
      expect(new Set(entries.map((e) => e.key)).size).toBe(entries.length);
      let total = 0;
      for (const m of members) {
        const own = entries.filter((e) => e.accountId === m.id);
        expect(own.map((e) => e.seq)).toEqual(own.map((_, i) => i + 1));
        const sum = own.reduce((s, e) => s + e.amount, 0);
        expect(own.at(-1)?.balance, m.email).toBe(sum);
        const shown = await json<{ points: number }>('/api/auth/user', { cookie: m.cookie });
        expect(shown.points, m.email).toBe(sum);
        total += sum;
      }
      const kinds = (kind: string) => entries.filter((e) => e.reason?.kind === kind);
      const planCharges = [...kinds('upgrade'), ...kinds('renewal')].reduce((s, e) => s - e.amount, 0);
      const sales = journeys.length;
      // every member's 300-point opening bonus, one card package per buyer, a 1,000-point fee per 3,000-point sale
      const expected = 300 * members.length + 10000 * sales - planCharges - 1000 * sales;
      expect(kinds('registrationBonus')).toHaveLength(members.length);
      expect(total).toBe(expected);
      for (const j of journeys) {
        // the card payment credited once, whether by the confirmation, the webhook or both
        expect(entries.filter((e) => e.paymentIntentId === j.paymentIntentId)).toHaveLength(1);
        const transfers = await billing
          .collection('transfers')
          .find({ buyerId: j.buyer.id, fileId: j.listing.id })
          .toArray();
        expect(transfers, `transfers of sale ${j.lane}.${j.round}`).toHaveLength(1);
        expect(transfers[0]).toMatchObject({
          state: 'applied',
          price: 3000,
          fee: 1000,
          net: 2000,
          sellerId: j.seller.id,
        });
        const sellerSale = entries.filter((e) => e.accountId === j.seller.id && e.reason?.kind === 'sale');
        expect(sellerSale.map((e) => e.amount)).toEqual([2000]);
        // the platform's fee credited once (to the platform's own account, not a member's)
        const fees = await billing
          .collection('point_transactions')
          .find({ 'reason.kind': 'platformFee', relatedFileId: j.listing.id })
          .toArray();
        expect(fees.map((e) => e.amount)).toEqual([1000]);
        const buyerSpend = entries.filter((e) => e.accountId === j.buyer.id && e.reason?.kind === 'purchase');
        expect(buyerSpend.map((e) => e.amount)).toEqual([-3000]);
        // one purchase and one licence per sale, in the marketplace and where the pages are served
        const purchases = await market.collection('purchases').find({ buyerId: j.buyer.id }).toArray();
        expect(purchases.map((p) => p.state)).toEqual(['completed']);
        expect(await market.collection('content_purchases').countDocuments({ buyerId: j.buyer.id })).toBe(1);
        await until('the licence where the pages are served', async () =>
          (await files.collection('licences').countDocuments({ buyerId: j.buyer.id, fileId: j.listing.id })) === 1
            ? true
            : undefined,
        );
        expect(await files.collection('licences').countDocuments({ buyerId: j.buyer.id })).toBe(1);
        // every play counted once (judged behind the intake stream: a killed judge's successor reads on from its
        // checkpoint, after its lease of at most 30 s)
        const stored = () => screens.collection('plays').countDocuments({ screenId: j.screen.screenId });
        await until('every play judged and stored', async () =>
          (await stored()) >= j.plays.length ? true : undefined,
        );
        expect(await stored()).toBe(j.plays.length);
        // every page image readable, by its owner; the screen kept its content
        for (const p of j.listing.pages) {
          const img = await send(p.imagePath, { cookie: j.seller.cookie });
          expect(img.status, p.imagePath).toBe(200);
          expect(img.headers.get('content-type') ?? '').toMatch(/^image\//);
          expect((await img.arrayBuffer()).byteLength).toBeGreaterThan(0);
        }
        const me = await json<{ assignment: { kind: string; fileId?: string } }>('/api/screens/device/me', {
          cookie: j.screen.device,
        });
        expect(me.assignment).toEqual({ kind: 'file', fileId: j.listing.id });
      }
      note(
        `checks: ${journeys.length} journeys, ${members.length} members, ${entries.length} ledger entries, ` +
          `members' points ${total} = ${300 * members.length} bonuses + ${10000 * sales} card − ${planCharges} plans − ${1000 * sales} fees; ` +
          `${sales} sales each with one transfer (3000 = 1000 fee + 2000 earned), one purchase, one licence; ` +
          `${journeys.reduce((s, j) => s + j.plays.length, 0)} plays counted once; ` +
          `${journeys.reduce((s, j) => s + j.listing.pages.length, 0)} page images readable; every screen kept its file`,
      );
    } finally {
      await Promise.all([billing.close(), market.close(), files.close(), screens.close()]);
    }
  });
});
