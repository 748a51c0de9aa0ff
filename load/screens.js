// Screens: SCREENS paired displays (paired beforehand by scripts/load.mjs through the real API).
// Each display boots once, at a random moment of the first BOOT_SPREAD_S seconds (default one period, 15 s: a fleet
// does not switch on in one instant) and reads its playlist, pages and page images once. Then, as the display page
// (mf-player's display-page.tsx) does: every 15 s from its boot a heartbeat and its manifest (GET
// /api/screens/device/me) with If-None-Match; every 30 s from its boot (PLAY_FLUSH_SECONDS) a batch of the play records
// of the pages it showed since its last batch (one record per page, 5 s each, back to back from its boot; a batch
// that failed but for a 400 is sent again with the next one, as the display's log keeps it). Its live stream
// (GET /api/events) is held open for the whole run by load/lib/fleet-streams.mjs in Node, not here: k6 has no
// streaming client (an async request ended by its time-out stood in for it), and the Node client reads each event,
// so the takeover and the playlist edit are timed on the displays' own streams (one per display, not two). All traffic
// carries the device cookie: the gateway limits per device, not per address.
// Every heartbeat says what the display shows (a page report), and once every display has booted the
// owner's fleet view (GET /api/screens/health: counts and a page of 50, sometimes filtered) is read every 2 s by one
// more VU, as an operator's open page would: its p95 is printed as 'fleet-health'.
// Counted for the summary (scripts/load.mjs): play batches by outcome (every record counted, some refused, or the
// batch refused: its error code, http-<status> without one, network), play records by outcome (accepted, duplicate,
// or the reason they were refused), and the manifest's 304 answers' own timing.
// Run: SCREENS=500 VUS=50 DURATION=60s npm run load -- screens
import { check, sleep } from 'k6';
import { SharedArray } from 'k6/data';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import { baseUrl, bounded } from './lib/target.js';

const BASE_URL = baseUrl();
// the fleet's cookies once for all VUs (parsed per VU, 10,000 screens were megabytes in each)
const screens = new SharedArray('screens', () => JSON.parse(open(__ENV.SCREENS_FILE)).screens);
const setup = new SharedArray('setup', () => {
  const { screens: _, ...rest } = JSON.parse(open(__ENV.SCREENS_FILE));
  return [rest];
})[0];
const { vus, duration } = bounded({ vus: 20, duration: '45s' }, { vus: 200, seconds: 180 });
const RUN_S = Number(duration.slice(0, -1));
const PERIOD_S = 15;
/** the display page sends its play log every 30 s (PLAY_FLUSH_SECONDS) */
const FLUSH_S = 30;
/** each page is shown this long, back to back */
const HOLD_S = 5;
/** PLAY_BATCH_MAX of the contracts: the display sends at most this many records per call */
const BATCH_MAX = 500;
const BOOT_SPREAD_S = Math.max(0, Number(__ENV.BOOT_SPREAD_S ?? PERIOD_S));
const PAGES = Math.max(1, setup.images.length);

/** outcomes counted per play batch and per record; each gets a threshold below so that k6 exports its count */
const BATCH_OUTCOMES = [
  'accepted',
  'records-refused',
  'PLAY_BATCH_INVALID',
  'VALIDATION',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'DEVICE_NOT_ALLOWED',
  'SCREEN_NOT_FOUND',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
  'network',
  'other',
];
const RECORD_OUTCOMES = [
  'accepted',
  'duplicate',
  'before-pairing',
  'ends-in-future',
  'not-assigned',
  'not-licensed',
  'no-such-page',
  'overlap',
  'other',
];
const playBatches = new Counter('play_batches');
const playRecords = new Counter('play_records');
const manifest304 = new Trend('manifest_304', true);
const counted = (name, outcomes) => Object.fromEntries(outcomes.map((o) => [`${name}{outcome:${o}}`, ['count>=0']]));

export const options = {
  // one iteration per VU, the whole run: its displays' rounds, each on its own 15 s clock (see the top)
  scenarios: {
    screens: { executor: 'per-vu-iterations', vus, iterations: 1, maxDuration: `${RUN_S + 30}s`, gracefulStop: '20s' },
    fleet: {
      executor: 'per-vu-iterations',
      vus: 1,
      iterations: 1,
      exec: 'fleetView',
      maxDuration: `${RUN_S + 30}s`,
      gracefulStop: '20s',
    },
  },
  thresholds: {
    checks: ['rate>0.99'],
    'http_req_failed{name:heartbeat}': ['rate<0.01'],
    'http_req_failed{name:manifest}': ['rate<0.01'],
    'http_req_failed{name:plays}': ['rate<0.01'],
    'http_req_failed{name:images}': ['rate<0.01'],
    'http_req_failed{name:content}': ['rate<0.01'],
    'http_req_failed{name:fleet-health}': ['rate<0.01'],
    // the operator's page, not a device call: a threshold mainly so that k6 keeps (and prints) its p95
    'http_req_duration{name:fleet-health}': ['p(95)<500'],
    'http_req_duration{name:heartbeat}': ['p(95)<100'],
    'http_req_duration{name:manifest}': ['p(95)<100'],
    'http_req_duration{name:plays}': ['p(95)<100'],
    'http_req_duration{name:images}': ['p(95)<100'],
    'http_req_duration{name:content}': ['p(95)<100'],
    manifest_304: ['p(95)<100'],
    ...counted('play_batches', BATCH_OUTCOMES),
    ...counted('play_records', RECORD_OUTCOMES),
  },
};

const uuid = () =>
  'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => {
    const r = (Math.random() * 16) | 0;
    return (c === 'x' ? r : (r & 0x3) | 0x8).toString(16);
  });

// per VU, by screen id: the manifest's ETag, whether it read its content yet, its rounds, where its page clock
// stands (the end of the last page put in its log, and that page's number) and the records not yet sent
const etags = {};
const loaded = {};
const rounds = {};
const clock = {};
const pending = {};
const notModified = http.expectedStatuses(200, 304);

function round(screen) {
  const headers = { cookie: screen.cookie };
  if (!loaded[screen.screenId]) {
    const items = http.get(`${BASE_URL}/api/playlists/${setup.playlistId}/items`, {
      headers,
      tags: { name: 'content' },
    });
    const pages = http.get(`${BASE_URL}/api/files/${setup.fileId}/pages?signage_mode=true`, {
      headers,
      tags: { name: 'content' },
    });
    check(items, { 'playlist 200': (r) => r.status === 200 });
    check(pages, { 'pages 200': (r) => r.status === 200 });
    for (const path of setup.images) {
      const img = http.get(`${BASE_URL}${path}`, { headers, tags: { name: 'images' } });
      check(img, { 'image 200': (r) => r.status === 200 });
    }
    loaded[screen.screenId] = true;
    // it plays from here on: the first page starts now (records from before it, or before its screen was given the
    // playlist, would be refused as not assigned)
    clock[screen.screenId] = { until: Date.now(), page: 1 };
    pending[screen.screenId] = [];
  }
  const manifest = http.get(`${BASE_URL}/api/screens/device/me`, {
    headers: etags[screen.screenId] ? { ...headers, 'If-None-Match': etags[screen.screenId] } : headers,
    tags: { name: 'manifest' },
    responseCallback: notModified,
  });
  check(manifest, { 'manifest 200/304': (r) => r.status === 200 || r.status === 304 });
  if (manifest.status === 304) manifest304.add(manifest.timings.duration);
  if (manifest.status === 200 && manifest.headers.Etag) etags[screen.screenId] = manifest.headers.Etag;
  rounds[screen.screenId] = (rounds[screen.screenId] ?? 0) + 1;
  const beat = http.post(
    `${BASE_URL}/api/screens/device/heartbeat`,
    JSON.stringify({
      appVersion: 'k6',
      screenSize: { width: 1920, height: 1080 },
      nowPlaying: { fileId: setup.fileId, page: 0 },
      // what it shows: one of the file's pages, drawn, 5 s each
      shows: {
        kind: 'page',
        fileId: setup.fileId,
        page: (rounds[screen.screenId] % PAGES) + 1,
        shownAt: new Date().toISOString(),
        holdSeconds: HOLD_S,
        loaded: true,
        error: null,
      },
    }),
    { headers: { ...headers, 'content-type': 'application/json' }, tags: { name: 'heartbeat' } },
  );
  check(beat, { 'heartbeat 200': (r) => r.status === 200 });
}

/**
 * The display's play log sent: one record per page shown since the last batch (pages of HOLD_S seconds back to back
 * from its boot, cycling through the file's pages: a screen's plays never overlap). The takeover of the run shows the
 * same file (load/lib/takeover-probe.mjs), so the records stay the file's pages and count as the takeover's plays.
 */
function flush(screen) {
  const id = screen.screenId;
  const at = clock[id];
  if (!at) return;
  const now = Date.now();
  while (at.until + HOLD_S * 1000 <= now) {
    pending[id].push({
      id: uuid(),
      fileId: setup.fileId,
      page: at.page,
      startedAt: new Date(at.until).toISOString(),
      seconds: HOLD_S,
    });
    at.until += HOLD_S * 1000;
    at.page = (at.page % PAGES) + 1;
  }
  if (pending[id].length === 0) return;
  const plays = pending[id].slice(0, BATCH_MAX);
  const sent = http.post(`${BASE_URL}/api/screens/device/plays`, JSON.stringify({ plays }), {
    headers: { cookie: screen.cookie, 'content-type': 'application/json' },
    tags: { name: 'plays' },
  });
  let answer = null;
  try {
    answer = sent.json();
  } catch {
    // no JSON body (a reset, a proxy's page)
  }
  let outcome;
  if (sent.status === 200 && answer) {
    outcome = answer.refused > 0 ? 'records-refused' : 'accepted';
    playRecords.add(answer.accepted, { outcome: 'accepted' });
    playRecords.add(answer.duplicates, { outcome: 'duplicate' });
    for (const [reason, n] of Object.entries(answer.refusedByReason ?? {}))
      playRecords.add(n, { outcome: RECORD_OUTCOMES.includes(reason) ? reason : 'other' });
  } else {
    const code = answer?.code ?? (sent.status === 0 ? 'network' : `http-${sent.status}`);
    outcome = BATCH_OUTCOMES.includes(code) ? code : 'other';
    if (outcome === 'other') console.warn(`play batch refused: ${code} (${sent.status})`);
  }
  playBatches.add(1, { outcome });
  // the display forgets an answered batch (counted, already counted or refused one by one) and one refused with a
  // 400 (it would be refused again); anything else is sent again with its next batch
  if (sent.status === 200 || sent.status === 400) pending[id] = pending[id].slice(plays.length);
  check(sent, { 'plays: every record counted': () => outcome === 'accepted' });
}

export default function () {
  // the displays of this VU: every VUS-th from its place in the scenario (0..VUS-1: one iteration per VU). Not
  // __VU: k6 numbers the VUs of both scenarios together, so the fleet view's VU took one of the numbers 1..VUS and a
  // screens VU got VUS+1, which played the same displays as VU 1 (each with its own play clock: overlapping plays,
  // refused as overlap) while one VU's share of the displays never played
  const slot = exec.scenario.iterationInTest;
  const mine = [];
  for (let i = slot; i < screens.length; i += vus) mine.push(screens[i]);
  const start = Date.now();
  const end = start + RUN_S * 1000;
  // each display's next round and next batch (ms since the epoch): its boot first, then every period
  const due = [];
  for (const screen of mine) {
    const boot = start + Math.random() * BOOT_SPREAD_S * 1000;
    due.push({ screen, run: round, every: PERIOD_S * 1000, at: boot });
    due.push({ screen, run: flush, every: FLUSH_S * 1000, at: boot + FLUSH_S * 1000 });
  }
  for (;;) {
    due.sort((a, b) => a.at - b.at);
    const next = due[0];
    if (!next || next.at >= end) break;
    const wait = (next.at - Date.now()) / 1000;
    if (wait > 0) sleep(wait);
    next.run(next.screen);
    next.at += next.every;
  }
}

/** The operator's fleet view, from when every display has booted (and reported) until the end of the run. */
export function fleetView() {
  const end = Date.now() + RUN_S * 1000;
  sleep(BOOT_SPREAD_S + 1);
  const headers = { cookie: setup.ownerCookie };
  for (let i = 0; Date.now() < end; i++) {
    const filter = ['', '&state=offline', '&state=online'][i % 3];
    const res = http.get(`${BASE_URL}/api/screens/health?limit=50${filter}`, {
      headers,
      tags: { name: 'fleet-health' },
    });
    check(res, {
      'fleet view counts every screen': (r) => r.status === 200 && r.json('counts.total') === screens.length,
    });
    sleep(2);
  }
}
