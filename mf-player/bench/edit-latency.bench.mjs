// Edit-to-screen latency of a playing signage screen: the time from a playlist save (PUT /api/playlists/:id/items)
// to the player applying it at its next page boundary, with 1 s pages. Split into delivery (save → the player holds
// the new playlist: live event + conditional refetch) and the wait for the boundary (uniform over one page, so about
// 500 ms on average: the baseline a perfect delivery would still show).
//
//   measureEditLatency({ page, save, orders, edits, log })  the measurement, for a player already open in `page`
//   benchEditLatency({ log, baseUrl, mailUrl, edits })      everything: member, two real PDFs, playlist, Chromium
//   verifiedSession, upload                                  a signed-in member, a converted PDF (other benchmarks too)
//
// Figures only; it never fails on time. Run alone: node mf-player/bench/edit-latency.bench.mjs (against
// E2E_BASE_URL or http://localhost:8080; a verification e-mail is read from maildev).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile } from '../../scripts/lib/stats.mjs';

export { percentile };

const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted.at(-1) ?? Number.NaN,
  };
};

/** Watches the player's root inside the page: when an update starts waiting, and when a playlist is applied. */
async function installObserver(page) {
  await page.evaluate(() => {
    const root = document.querySelector('[data-player="signage"]');
    const log = { pending: [], applied: [], pageChangedAt: Date.now() };
    window.__pcLatency = log;
    let lastFiles = root.getAttribute('data-playlist-files');
    let lastPage = `${root.getAttribute('data-file-id')}#${root.getAttribute('data-page-index')}`;
    new MutationObserver(() => {
      const now = Date.now();
      if (root.getAttribute('data-update-pending') === 'true') log.pending.push(now);
      const pageNow = `${root.getAttribute('data-file-id')}#${root.getAttribute('data-page-index')}`;
      if (pageNow !== lastPage) {
        lastPage = pageNow;
        log.pageChangedAt = now;
      }
      const files = root.getAttribute('data-playlist-files');
      if (files !== lastFiles) {
        lastFiles = files;
        log.applied.push({ files, at: Number(root.getAttribute('data-applied-at')) || now, seen: now });
      }
    }).observe(root, { attributes: true });
  });
}

/**
 * What the player shows when an edit has not arrived, to tell the causes apart: a player that stopped turning pages
 * (playback stalled), one that holds the update but has not applied it (pending), one that never received it (a
 * live event lost between the save and the screen), or a live stream that is not open.
 */
async function whyNotApplied(page, wanted, savedAt) {
  const state = await page.evaluate(() => {
    const root = document.querySelector('[data-player="signage"]');
    const attr = (n) => root?.getAttribute(n) ?? null;
    return {
      attached: Boolean(root?.isConnected),
      files: attr('data-playlist-files'),
      fileId: attr('data-file-id'),
      page: attr('data-page-index'),
      live: attr('data-live'),
      pending: attr('data-update-pending'),
      playing: attr('data-playing'),
      lastPageChangeMsAgo: Date.now() - window.__pcLatency.pageChangedAt,
      applied: window.__pcLatency.applied.slice(-3),
    };
  });
  return JSON.stringify({ wanted, savedMsAgo: Date.now() - savedAt, ...state });
}

/**
 * `save(order)` saves the playlist in that order; `orders` are the two orders it alternates between (the player
 * must be playing that playlist, currently in orders[0]). Before each save it waits a pseudo-random part of a page,
 * so edits land at every phase of the page on screen.
 */
export async function measureEditLatency({ page, save, orders, edits = 20, pageMs = 1000, log = console.log }) {
  await installObserver(page);
  const delivery = [];
  const saveCall = [];
  // per edit: when the save started, when the player says it applied it (the latency is the difference), when the
  // observer saw the change, and the last changes seen (to tell a failure's cause)
  const perEdit = [];
  let seed = 7;
  const random = () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  for (let i = 0; i < edits; i++) {
    const order = orders[(i + 1) % 2];
    await new Promise((r) => setTimeout(r, Math.round(random() * pageMs)));
    const before = await page.evaluate(() => window.__pcLatency.applied.length);
    const t0 = Date.now();
    await save(order);
    saveCall.push(Date.now() - t0);
    const wanted = order.join(',');
    try {
      await page.waitForFunction(
        ({ n, files }) => window.__pcLatency.applied.slice(n).some((a) => a.files === files),
        { n: before, files: wanted },
        { timeout: 20_000, polling: 50 },
      );
    } catch (err) {
      throw new Error(`edit ${i + 1}/${edits} did not reach the screen: ${await whyNotApplied(page, wanted, t0)}`, {
        cause: err,
      });
    }
    const seen = await page.evaluate(
      ({ n, files, since }) => ({
        applied: window.__pcLatency.applied.slice(n).find((a) => a.files === files),
        pending: window.__pcLatency.pending.find((at) => at >= since),
        recent: window.__pcLatency.applied.slice(-4),
      }),
      { n: before, files: wanted, since: t0 },
    );
    perEdit.push({ t0, at: seen.applied.at, seen: seen.applied.seen, recent: seen.recent });
    if (seen.pending !== undefined) delivery.push(seen.pending - t0);
  }
  const result = {
    total: summary(perEdit.map((e) => e.at - e.t0)),
    delivery: summary(delivery),
    save: summary(saveCall),
    edits: perEdit,
  };
  log(`edit-to-screen latency over ${edits} playlist edits, ${pageMs} ms pages:`);
  log(
    `  save → applied at the next boundary  p50 ${result.total.p50} ms  p95 ${result.total.p95} ms  max ${result.total.max} ms`,
  );
  log(
    `  save → player holds the new data     p50 ${result.delivery.p50} ms  p95 ${result.delivery.p95} ms  (n=${result.delivery.n})`,
  );
  log(
    `  baseline: the save call itself       p50 ${result.save.p50} ms  p95 ${result.save.p95} ms; boundary wait ≈ U(0, ${pageMs}) ms`,
  );
  return result;
}

/** A new member, verified through maildev and signed in: its session cookie and a JSON caller. */
export async function verifiedSession(baseUrl, mailUrl) {
  const member = {
    email: `bench-${randomUUID().slice(0, 8)}@example.com`,
    password: 'correct horse battery staple',
    firstName: 'Bench',
    lastName: 'Player',
  };
  const post = (p, body, headers = {}) =>
    fetch(`${baseUrl}${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const registered = await post('/api/auth/register', member);
  if (!registered.ok) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  let token;
  for (const deadline = Date.now() + 15_000; !token && Date.now() < deadline; ) {
    const mails = await (await fetch(`${mailUrl}/email`)).json();
    token = mails
      .find((m) => m.headers?.to?.includes(member.email))
      ?.text?.match(/verify-email\?token=([A-Za-z0-9_-]+)/)?.[1];
    if (!token) await new Promise((r) => setTimeout(r, 300));
  }
  if (!token) throw new Error('no verification e-mail');
  await post('/api/auth/verify-email', { token });
  const login = await post('/api/auth/local-login', { email: member.email, password: member.password });
  const cookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('pc_session='))
    ?.split(';')[0];
  if (!cookie) throw new Error(`login: ${login.status}`);
  const call = async (method, p, body) => {
    const isForm = body instanceof FormData;
    const r = await fetch(`${baseUrl}${p}`, {
      method,
      headers: { cookie, ...(body === undefined || isForm ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  return { cookie, call };
}

/** Uploads a corpus PDF and waits until it is converted; its file id. */
export async function upload(call, file, title) {
  const form = new FormData();
  form.append(
    'pdf',
    new Blob([readFileSync(path.join(process.env.PAGECAST_CORPUS ?? '/work/shared/corpus', 'pdf', file))], {
      type: 'application/pdf',
    }),
    file,
  );
  form.append('title', title);
  form.append('displayDuration', '1');
  const { id } = await call('POST', '/api/files/upload', form);
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; ) {
    const f = await call('GET', `/api/files/${id}?signage_mode=true`);
    if (f.status !== 'processing') return id;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${file} still processing`);
}

export async function benchEditLatency({
  log = console.log,
  baseUrl = process.env.E2E_BASE_URL ?? 'http://localhost:8080',
  mailUrl = process.env.MAILDEV_API_URL ?? 'http://127.0.0.1:11080',
  edits = 20,
} = {}) {
  const { chromium } = await import('playwright-core');
  const { cookie, call } = await verifiedSession(baseUrl, mailUrl);
  const a = await upload(call, 'vertical.pdf', 'Bench A');
  const b = await upload(call, 'noembed-sjis.pdf', 'Bench B');
  const { id: playlistId } = await call('POST', '/api/playlists', { name: 'Bench' });
  await call('PUT', `/api/playlists/${playlistId}/items`, { fileIds: [a, b] });
  const dir = mkdtempSync(path.join(tmpdir(), 'pagecast-bench-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
    baseURL: baseUrl,
  });
  try {
    const [name, value] = cookie.split('=');
    await context.addCookies([{ name, value, url: baseUrl }]);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`/signage/${a}?playlist=${playlistId}&index=0&autoplay=true`);
    await page.waitForFunction(
      () => document.querySelector('[data-player="signage"]')?.getAttribute('data-live') === 'open',
    );
    return await measureEditLatency({
      page,
      orders: [
        [a, b],
        [b, a],
      ],
      save: (fileIds) => call('PUT', `/api/playlists/${playlistId}/items`, { fileIds }),
      edits,
      log,
    });
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await benchEditLatency();
}
