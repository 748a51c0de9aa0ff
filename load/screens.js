// Screens (issue 12): SCREENS paired displays (paired beforehand by scripts/load.mjs through the real API), each
// every 15 s: a heartbeat, its manifest (GET /api/screens/device/me) with If-None-Match, a batch of 3 play records;
// and once, its playlist, pages and page images; and all the while its live stream (GET /api/events), held open for
// most of each period. k6 has no streaming client: an async request that the stream never finishes, ended by its own
// time-out, stands in for it (tagged `stream`; its time-out is the expected end, so it is left out of the error
// thresholds). All traffic carries the device cookie: the gateway limits per device, not per address.
// Run: SCREENS=500 VUS=50 DURATION=60s npm run load -- screens
import { check, sleep } from 'k6';
import http from 'k6/http';
import { baseUrl, bounded } from './lib/target.js';

const BASE_URL = baseUrl();
const setup = JSON.parse(open(__ENV.SCREENS_FILE));
const { vus, duration } = bounded({ vus: 20, duration: '45s' }, { vus: 200, seconds: 180 });
const PERIOD_S = 15;

export const options = {
  scenarios: { screens: { executor: 'constant-vus', vus, duration, gracefulStop: '20s' } },
  thresholds: {
    checks: ['rate>0.99'],
    'http_req_failed{name:heartbeat}': ['rate<0.01'],
    'http_req_failed{name:manifest}': ['rate<0.01'],
    'http_req_failed{name:plays}': ['rate<0.01'],
    'http_req_failed{name:images}': ['rate<0.01'],
    'http_req_failed{name:content}': ['rate<0.01'],
    'http_req_duration{name:heartbeat}': ['p(95)<100'],
    'http_req_duration{name:manifest}': ['p(95)<100'],
    'http_req_duration{name:plays}': ['p(95)<100'],
    'http_req_duration{name:images}': ['p(95)<100'],
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
const loaded = {};
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
  }
  const manifest = http.get(`${BASE_URL}/api/screens/device/me`, {
    headers: etags[screen.screenId] ? { ...headers, 'If-None-Match': etags[screen.screenId] } : headers,
    tags: { name: 'manifest' },
    responseCallback: notModified,
  });
  check(manifest, { 'manifest 200/304': (r) => r.status === 200 || r.status === 304 });
  if (manifest.status === 200 && manifest.headers.Etag) etags[screen.screenId] = manifest.headers.Etag;
  const beat = http.post(
    `${BASE_URL}/api/screens/device/heartbeat`,
    JSON.stringify({
      appVersion: 'k6',
      screenSize: { width: 1920, height: 1080 },
      nowPlaying: { fileId: setup.fileId, page: 0 },
    }),
    { headers: { ...headers, 'content-type': 'application/json' }, tags: { name: 'heartbeat' } },
  );
  check(beat, { 'heartbeat 200': (r) => r.status === 200 });
  const now = Date.now();
  const plays = [0, 1, 2].map((page) => ({
    id: uuid(),
    fileId: setup.fileId,
    page,
    startedAt: new Date(now - (3 - page) * 5000).toISOString(),
    seconds: 5,
  }));
  const sent = http.post(`${BASE_URL}/api/screens/device/plays`, JSON.stringify({ plays }), {
    headers: { ...headers, 'content-type': 'application/json' },
    tags: { name: 'plays' },
  });
  check(sent, { 'plays accepted once': (r) => r.status === 200 && r.json('accepted') === 3 });
}

/** The display's live stream for most of a period (see the top): resolves when its time-out ends it. */
function holdStream(screen) {
  return http.asyncRequest('GET', `${BASE_URL}/api/events?playlist=${setup.playlistId}`, null, {
    headers: { cookie: screen.cookie, accept: 'text/event-stream' },
    timeout: `${PERIOD_S - 2}s`,
    tags: { name: 'stream' },
  });
}

export default async function () {
  const started = Date.now();
  const streams = mine.map(holdStream);
  for (const screen of mine) round(screen);
  await Promise.all(streams);
  sleep(Math.max(0, PERIOD_S - (Date.now() - started) / 1000));
}
