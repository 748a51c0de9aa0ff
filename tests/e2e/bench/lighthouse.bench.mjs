// Lighthouse performance (mobile preset: simulated slow 4G and a 4× slower CPU) and accessibility scores (npm
// lighthouse with Debian's chromium) of the landing page, login and the player (a member's own converted PDF, session
// cookie sent as a header). Figures only: the e2e suite's axe run is the accessibility gate. Goal: 95 / 100.
// One run of Lighthouse varies by several points on a busy machine: each page is run LIGHTHOUSE_RUNS times (5 unless
// set) and the run with the median performance is reported, with every run's score beside it (Lighthouse's own advice
// for comparing builds is the median of several runs). LIGHTHOUSE_REPORTS=<folder> keeps every run's JSON report
// there (page-run.json), to read what a score is made of.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 5) || 5);
const cli = createRequire(import.meta.url).resolve('lighthouse/cli/index.js');

async function member(baseUrl, mailUrl) {
  const email = `lh-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'correct horse battery staple';
  const post = (p, body, headers = {}) =>
    fetch(`${baseUrl}${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const reg = await post('/api/auth/register', { email, password, firstName: 'Taro', lastName: 'Yamada' });
  if (!reg.ok) throw new Error(`register: ${reg.status}`);
  let token;
  for (let i = 0; i < 50 && !token; i += 1) {
    const mails = await (await fetch(`${mailUrl}/email`)).json();
    token = mails.find((m) => m.headers?.to?.includes(email))?.text?.match(/verify-email\?token=([A-Za-z0-9_-]+)/)?.[1];
    if (!token) await new Promise((r) => setTimeout(r, 300));
  }
  if (!(await post('/api/auth/verify-email', { token })).ok) throw new Error('verify failed');
  const login = await post('/api/auth/local-login', { email, password });
  const cookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('pc_session='))
    ?.split(';')[0];
  if (!cookie) throw new Error('login: no session cookie');
  const form = new FormData();
  const pdf = path.join(process.env.PAGECAST_CORPUS ?? '/work/shared/corpus', 'pdf/vertical.pdf');
  form.append('pdf', new Blob([readFileSync(pdf)], { type: 'application/pdf' }), path.basename(pdf));
  form.append('title', 'Lighthouse deck');
  form.append('displayDuration', '5');
  const up = await fetch(`${baseUrl}/api/files/upload`, { method: 'POST', headers: { cookie }, body: form });
  if (!up.ok) throw new Error(`upload: ${up.status}`);
  const { id } = await up.json();
  for (let i = 0; i < 180; i += 1) {
    const f = await (await fetch(`${baseUrl}/api/files/${id}?signage_mode=true`, { headers: { cookie } })).json();
    if (f.status !== 'processing') return { cookie, fileId: id };
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('conversion did not finish');
}

async function score(url, headers, keepAs) {
  const args = [
    cli,
    url,
    '--only-categories=accessibility,performance',
    '--output=json',
    '--quiet',
    '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
  ];
  if (headers) args.push(`--extra-headers=${JSON.stringify(headers)}`);
  const once = () =>
    run(process.execPath, args, {
      env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
      maxBuffer: 64 * 1024 * 1024,
    });
  // Lighthouse sometimes loses the trace of a page load (NO_NAVSTART, "run Lighthouse again"): one more try.
  const { stdout } = await once().catch((err) => {
    if (!/NO_NAVSTART|run Lighthouse again/.test(String(err?.stderr ?? err?.message))) throw err;
    return once();
  });
  const report = JSON.parse(stdout);
  if (process.env.LIGHTHOUSE_REPORTS && keepAs) {
    mkdirSync(process.env.LIGHTHOUSE_REPORTS, { recursive: true });
    writeFileSync(path.join(process.env.LIGHTHOUSE_REPORTS, `${keepAs}.json`), stdout);
  }
  const failed = Object.values(report.audits)
    .filter((a) => a.score === 0 && a.scoreDisplayMode === 'binary')
    .map((a) => a.id);
  const ms = (id) => Math.round(report.audits[id]?.numericValue ?? Number.NaN);
  return {
    score: Math.round(report.categories.accessibility.score * 100),
    performance: Math.round(report.categories.performance.score * 100),
    fcp: ms('first-contentful-paint'),
    lcp: ms('largest-contentful-paint'),
    si: ms('speed-index'),
    tbt: ms('total-blocking-time'),
    cls: Number((report.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN).toFixed(3)),
    kib: Math.round((report.audits['total-byte-weight']?.numericValue ?? Number.NaN) / 1024),
    failed: failed.join(' ') || '-',
    // where the audit ended: a visitor sent to /login instead of the player would show here
    final: new URL(report.finalDisplayedUrl).pathname,
  };
}

export async function benchLighthouse({ baseUrl, mailUrl, log }) {
  const { cookie, fileId } = await member(baseUrl, mailUrl);
  const rows = [];
  for (const [label, page, url, headers] of [
    ['landing /', 'landing', `${baseUrl}/`],
    ['login /login', 'login', `${baseUrl}/login`],
    ['player /signage/:fileId', 'player', `${baseUrl}/signage/${fileId}`, { Cookie: cookie }],
  ]) {
    const runs = [];
    for (let i = 0; i < RUNS; i += 1) runs.push(await score(url, headers, `${page}-${i + 1}`));
    const r = [...runs].sort((a, b) => a.performance - b.performance)[Math.floor((runs.length - 1) / 2)];
    const all = runs.map((x) => x.performance).join(', ');
    log(
      `${label}: performance ${r.performance} (median of ${runs.length} runs: ${all}; FCP ${r.fcp} ms, LCP ${r.lcp} ms, SI ${r.si} ms, TBT ${r.tbt} ms, CLS ${r.cls}, ${r.kib} KiB), accessibility ${r.score} at ${r.final} (failed audits: ${r.failed})`,
    );
    rows.push({
      label,
      performance: r.performance,
      performanceRuns: all,
      fcpMs: r.fcp,
      lcpMs: r.lcp,
      siMs: r.si,
      tbtMs: r.tbt,
      cls: r.cls,
      transferKiB: r.kib,
      accessibility: r.score,
      auditedPath: r.final,
      failedAudits: r.failed,
    });
  }
  return rows;
}
