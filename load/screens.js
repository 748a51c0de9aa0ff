// Screens (issue 12, issue 40): SCREENS paired displays (paired beforehand by scripts/load.mjs through the real API).
// Each display boots once, at a random moment of the first BOOT_SPREAD_S seconds (default one period, 15 s: a fleet
// does not switch on in one instant) and reads its playlist, pages and page images once. Then every 15 s from its
// boot: a heartbeat, its manifest (GET /api/screens/device/me) with If-None-Match, a batch of 3 play records. Its live
// stream (GET /api/events) is held open for the whole run by load/lib/fleet-streams.mjs in Node, not here: k6 has no
// streaming client (an async request ended by its time-out stood in for it), and the Node client reads each event,
// so the takeover and the playlist edit are timed on the displays' own streams (one per display, not two). All traffic
// carries the device cookie: the gateway limits per device, not per address.
// Every heartbeat says what the display shows (issue 38: a page report), and once every display has booted the
// owner's fleet view (GET /api/screens/health: counts and a page of 50, sometimes filtered) is read every 2 s by one
// more VU, as an operator's open page would: its p95 is printed as 'fleet-health'.
// Run: SCREENS=500 VUS=50 DURATION=60s npm run load -- screens
import { check, sleep } from 'k6';
import http from 'k6/http';
import { baseUrl, bounded } from './lib/target.js';

const BASE_URL = baseUrl();
const setup = JSON.parse(open(__ENV.SCREENS_FILE));
const { vus, duration } = bounded({ vus: 20, duration: '45s' }, { vus: 200, seconds: 180 });
const RUN_S = Number(duration.slice(0, -1));
const PERIOD_S = 15;
const BOOT_SPREAD_S = Math.max(0, Number(__ENV.BOOT_SPREAD_S ?? PERIOD_S));

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
  },
};

const uuid = () =>
  'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => {
    const r = (Math.random() * 16) | 0;
    return (c === 'x' ? r : (r & 0x3) | 0x8).toString(16);
  });

// per VU: the screens it plays, their manifest ETags, whether each read its content yet
const mine = setup.screens.filter((_, i) => i % vus === (__VU - 1) % vus);
const etags = {};
const playedUntil = {};
const loaded = {};
const takenOverFrom = {};
const notModified = http.expectedStatuses(200, 304);
const rounds = {};

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
  }
  const manifest = http.get(`${BASE_URL}/api/screens/device/me`, {
    headers: etags[screen.screenId] ? { ...headers, 'If-None-Match': etags[screen.screenId] } : headers,
    tags: { name: 'manifest' },
    responseCallback: notModified,
  });
  check(manifest, { 'manifest 200/304': (r) => r.status === 200 || r.status === 304 });
  if (manifest.status === 200 && manifest.headers.Etag) etags[screen.screenId] = manifest.headers.Etag;
  // a takeover on this screen (issue 37, started in the middle of the run by load/lib/takeover-probe.mjs): a display
  // shows it from its start and plays no page of its own then, so it reports nothing from that instant on
  if (manifest.status === 200) {
    const starts = (manifest.json('takeovers') ?? []).map((t) => Date.parse(t.startsAt));
    if (starts.length) takenOverFrom[screen.screenId] = Math.min(...starts);
  }
  rounds[screen.screenId] = (rounds[screen.screenId] ?? 0) + 1;
  const beat = http.post(
    `${BASE_URL}/api/screens/device/heartbeat`,
    JSON.stringify({
      appVersion: 'k6',
      screenSize: { width: 1920, height: 1080 },
      nowPlaying: { fileId: setup.fileId, page: 0 },
      // what it shows (issue 38): one of the file's three pages, drawn, 5 s each
      shows: {
        kind: 'page',
        fileId: setup.fileId,
        page: (rounds[screen.screenId] % 3) + 1,
        shownAt: new Date().toISOString(),
        holdSeconds: 5,
        loaded: true,
        error: null,
      },
    }),
    { headers: { ...headers, 'content-type': 'application/json' }, tags: { name: 'heartbeat' } },
  );
  check(beat, { 'heartbeat 200': (r) => r.status === 200 });
  // the three pages (numbered from 1) of the last 15 s, after what this screen already reported: a screen's plays
  // never overlap (the service refuses an overlap beyond a second)
  // a display reports what it showed since it booted: nothing at its boot (records from before it, or before its
  // screen was given the playlist, are refused as not assigned)
  if (playedUntil[screen.screenId] === undefined) {
    playedUntil[screen.screenId] = Date.now();
    return;
  }
  let start = Math.max(playedUntil[screen.screenId], Date.now() - 15000);
  const until = takenOverFrom[screen.screenId] ?? Number.POSITIVE_INFINITY;
  const plays = [];
  for (const page of [1, 2, 3]) {
    if (start + 5000 > until) break;
    plays.push({ id: uuid(), fileId: setup.fileId, page, startedAt: new Date(start).toISOString(), seconds: 5 });
    start += 5000;
  }
  playedUntil[screen.screenId] = start;
  if (plays.length === 0) return;
  const sent = http.post(`${BASE_URL}/api/screens/device/plays`, JSON.stringify({ plays }), {
    headers: { ...headers, 'content-type': 'application/json' },
    tags: { name: 'plays' },
  });
  // a takeover that began within these records' 15 s (the display learns it with its next manifest) makes the records
  // after its start not assigned: refused rightly; the manifest read again says whether one began before they ended
  let counted = sent.status === 200 && sent.json('accepted') === plays.length;
  const refusedNotAssigned = sent.status === 200 ? (sent.json('refusedByReason.not-assigned') ?? 0) : 0;
  if (!counted && refusedNotAssigned > 0 && sent.json('accepted') + refusedNotAssigned === plays.length) {
    const again = http.get(`${BASE_URL}/api/screens/device/me`, { headers, tags: { name: 'manifest' } });
    const starts = again.status === 200 ? (again.json('takeovers') ?? []).map((t) => Date.parse(t.startsAt)) : [];
    if (starts.length) {
      takenOverFrom[screen.screenId] = Math.min(...starts);
      counted = takenOverFrom[screen.screenId] < start;
    }
  }
  check(sent, { 'plays accepted once (or after a takeover began, refused)': () => counted });
}

export default function () {
  const start = Date.now();
  const end = start + RUN_S * 1000;
  // each display's next round (ms since the epoch): its boot first, then every period
  const due = mine.map((screen) => ({ screen, at: start + Math.random() * BOOT_SPREAD_S * 1000 }));
  for (;;) {
    due.sort((a, b) => a.at - b.at);
    const next = due[0];
    if (!next || next.at >= end) break;
    const wait = (next.at - Date.now()) / 1000;
    if (wait > 0) sleep(wait);
    round(next.screen);
    next.at += PERIOD_S * 1000;
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
      'fleet view counts every screen': (r) => r.status === 200 && r.json('counts.total') === setup.screens.length,
    });
    sleep(2);
  }
}
