// Screens over the display's socket (docs/device-socket.md): the k6 scenario `npm run load -- screens` runs by
// default (TRANSPORT=http runs load/screens.js, the HTTP fallback's load). Each VU holds its share of the displays'
// sockets on its event loop (k6/websockets), so a few hundred VUs hold 10,000; each display, as mf-player's display
// page behaves over its socket:
// - boots at a random moment of the first BOOT_SPREAD_S seconds: opens its socket with its device cookie (and the
//   site's Origin), says hello with the manifest version it holds (none at boot), watches its playlist and file (the
//   `watch` frame: their changes come down as `event` frames), reads its manifest
//   (GET /api/screens/device/me, with If-None-Match) only when the version answered differs from the one it holds (and
//   the socket did not give its text), then once its playlist and pages over the socket (`playlist` and `pages`
//   frames with the ETag held; over HTTP while the socket is down, as the page) and its page images over HTTP;
// - every 15 s a heartbeat frame (saying what it shows: one of the file's pages, 5 s each) and every 30 s a play
//   batch frame of the pages shown since the last one, signed as the page's play-sender signs it
//   (load/lib/play-signing.js): a key pair made at its boot (WebCrypto, ECDSA P-256: k6 has no Ed25519, and the
//   page uses P-256 where the browser lacks it), bound by a `key` frame (`{ publicKey }`, answered with where the
//   key's chain stands) at its first flush, then each batch signed over its place in the chain and its records'
//   digests, kept as signed until answered (a batch refused with 429/503, or not answered in time or before its
//   socket dropped, is sent again as it was; the records shown meanwhile wait for the next); replies matched by ref,
//   timed from the send;
// - a `manifest` frame: reads its manifest again; an `event` frame of a playlist save: reads the playlist again, then
//   the pages of each file it holds, each with the ETag held (unchanged files answer 304), once as the
//   display page does (its slides and its offline keeper share the reads of a change); CHANGE_READS=2 models the
//   page before that, whose slides and keeper each made every read, at the same moment.
// The probes' changes are made by scripts/load.mjs (the owner's calls) at moments agreed through the environment
// (EDIT_AT_MS, TAKEOVER_AT_MS: epoch ms, one clock on one machine): a display counts the playlist edit as shown
// when its playlist read after the event holds the new file, and the takeover when its manifest read after the
// `manifest` frame holds a takeover; each is timed from the moment the change was made.
// The storm after a power cut (STORM_AT_MS, after the run): every display drops its socket and forgets its state
// (power gone), then comes back at a random moment of the next STORM_SPREAD_S seconds and does what a booting
// display does until it plays (socket, hello, manifest, playlist, pages, first image); a refused upgrade or call
// is tried again with exponential backoff and jitter (1 s doubling to 10 s, ± half), until 60 s after the spread.
// Timed: from the cut until each display plays. The storm's own calls are named storm-* (not in the run's p95s).
// Counted for scripts/load.mjs: replies by type and status, socket drops, play batches and records by outcome, and
// the signing (play_signing: keys bound, batches the service took signed, once each); a batch refused, a key
// refused, a batch taken unsigned or a WebCrypto failure fails the run (the server must check every batch's signature).
import { check, sleep } from 'k6';
import { sha256 as nativeSha256 } from 'k6/crypto';
import encoding from 'k6/encoding';
import { SharedArray } from 'k6/data';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Rate, Trend } from 'k6/metrics';
import { clearTimeout, setTimeout } from 'k6/timers';
import { WebSocket } from 'k6/websockets';
import { importDisplayKey, makeDisplayKey, signBatch } from './play-signing.js';
import { baseUrl, bounded } from './target.js';

const BASE_URL = baseUrl();
const WS_URL = `${BASE_URL.replace(/^http/, 'ws')}/api/screens/device/socket`;
// the gateway takes an upgrade only from the site's own pages (its PUBLIC_URL)
const ORIGIN = __ENV.ORIGIN || BASE_URL;
const screens = new SharedArray('screens', () => JSON.parse(open(__ENV.SCREENS_FILE)).screens);
const setup = new SharedArray('setup', () => {
  const { screens: _, ...rest } = JSON.parse(open(__ENV.SCREENS_FILE));
  return [rest];
})[0];
const { vus, duration } = bounded({ vus: 20, duration: '5m' }, { vus: 500, seconds: 900 });
const RUN_S = Number(duration.slice(0, -1));
/** the display page's regular heartbeat (SCREEN_HEARTBEAT_SECONDS); HEARTBEAT_S and FLUSH_S try other intervals */
const HEARTBEAT_MS = Number(__ENV.HEARTBEAT_S || 15) * 1000;
/** the display page sends its play log every 30 s (PLAY_FLUSH_SECONDS) */
const FLUSH_MS = Number(__ENV.FLUSH_S || 30) * 1000;
/** signing's encoders in Go (play-signing.js's plain ones are goja loops: the generator's core was the limit) */
const codec = {
  digest: (text) => nativeSha256(text, 'base64rawurl'),
  // a string's UTF-8 bytes: k6 has no TextEncoder, and its base64 encoder takes a string as UTF-8
  utf8: (text) => encoding.b64decode(encoding.b64encode(text, 'rawstd'), 'rawstd'),
  b64url: (bytes) => encoding.b64encode(bytes, 'rawurl'),
};
const HOLD_S = 5;
const BATCH_MAX = 500;
const BOOT_SPREAD_S = Math.max(0, Number(__ENV.BOOT_SPREAD_S ?? 15));
const PAGES = Math.max(1, setup.images.length);
const EDIT_AT = Number(__ENV.EDIT_AT_MS || 0);
const TAKEOVER_AT = Number(__ENV.TAKEOVER_AT_MS || 0);
const STORM_AT = Number(__ENV.STORM_AT_MS || 0);
const STORM_SPREAD_MS = Math.max(0, Number(__ENV.STORM_SPREAD_S ?? 15)) * 1000;
const STORM_GIVE_UP_MS = 60_000;
/** a reply later than this counts as lost (failed), and the call is sent again with the next */
const REPLY_TIMEOUT_MS = 10_000;
const PLAYLIST_SAVED = 'files.playlist.saved.v1';
const CHANGE_READS = Math.max(1, Math.floor(Number(__ENV.CHANGE_READS ?? 1)));
const playlistPath = () => `/api/playlists/${setup.playlistId}/items`;
const pagesPath = (fileId) => `/api/files/${fileId}/pages?signage_mode=true`;

const reply = new Trend('ws_reply', true);
const replyFailed = new Rate('ws_reply_failed');
const hello = new Trend('ws_hello', true);
const connect = new Trend('ws_connect', true);
const drops = new Counter('ws_drops');
const editMs = new Trend('probe_edit', true);
const editShown = new Counter('probe_edit_shown');
const takeoverMs = new Trend('probe_takeover', true);
const takeoverShown = new Counter('probe_takeover_shown');
/** content reads after a change tried again after a failure (the page's retry) */
const changeRetries = new Counter('change_reads_retried');
/** manifests the socket pushed with their version (the display read nothing for them) */
const pushedManifests = new Counter('ws_manifests_pushed');
const stormMs = new Trend('storm_playing', true);
/** from the display's own return (power back) until it plays */
const stormFromBoot = new Trend('storm_from_boot', true);
const stormPlaying = new Counter('storm_playing_count');
const stormRefusals = new Counter('storm_refusals');
const playBatches = new Counter('play_batches');
const playRecords = new Counter('play_records');
const signing = new Counter('play_signing');

const BATCH_OUTCOMES = ['accepted', 'records-refused', 'retry', 'refused', 'lost'];
const RECORD_OUTCOMES = ['accepted', 'duplicate', 'refused'];
/** key-bound: a display's key taken (once per display); signed, unsigned: a batch the service took (once per batch,
 * not per resend); key-refused: SCREEN_KEY_BOUND or a refused key (the page then sends unsigned); failed: WebCrypto threw */
const SIGNING_OUTCOMES = ['key-bound', 'signed', 'key-refused', 'unsigned', 'failed'];
const counted = (name, outcomes) => Object.fromEntries(outcomes.map((o) => [`${name}{outcome:${o}}`, ['count>=0']]));

export const options = {
  scenarios: {
    screens: {
      executor: 'per-vu-iterations',
      vus,
      iterations: 1,
      maxDuration: `${RUN_S + (STORM_AT ? STORM_SPREAD_MS / 1000 + STORM_GIVE_UP_MS / 1000 : 0) + 60}s`,
      gracefulStop: '20s',
    },
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
    ws_reply_failed: ['rate<0.01'],
    'ws_reply{type:heartbeat}': ['p(95)<100'],
    'ws_reply{type:plays}': ['p(95)<100'],
    'ws_reply{type:playlist}': ['p(95)<100'],
    'ws_reply{type:pages}': ['p(95)<100'],
    'ws_hello{phase:run}': ['p(95)<100'],
    'ws_connect{phase:run}': ['p(95)<100'],
    'http_req_failed{name:manifest}': ['rate<0.01'],
    'http_req_failed{name:content}': ['rate<0.01'],
    'http_req_failed{name:images}': ['rate<0.01'],
    'http_req_failed{name:fleet-health}': ['rate<0.01'],
    'http_req_duration{name:manifest}': ['p(95)<100'],
    'http_req_duration{name:content}': ['p(95)<100'],
    'http_req_duration{name:images}': ['p(95)<100'],
    'http_req_duration{name:fleet-health}': ['p(95)<500'],
    // the probes' and the storm's figures are judged by scripts/load.mjs (every display, p95 under 2 s / 5 s / 60 s);
    // thresholds here only so that k6 exports them
    probe_edit: ['p(95)>=0'],
    probe_takeover: ['p(95)>=0'],
    storm_playing: ['p(95)>=0'],
    storm_from_boot: ['p(95)>=0'],
    ws_drops: ['count>=0'],
    probe_edit_shown: ['count>=0'],
    probe_takeover_shown: ['count>=0'],
    storm_playing_count: ['count>=0'],
    ...counted('storm_refusals', ['upgrade', 'closed', 'manifest', 'content']),
    ...counted('play_batches', BATCH_OUTCOMES),
    ...counted('play_records', RECORD_OUTCOMES),
    ...counted('play_signing', SIGNING_OUTCOMES),
    // every batch is the server's signature check: one refused, or taken without it, fails the run
    'play_batches{outcome:refused}': ['count==0'],
    'play_signing{outcome:key-refused}': ['count==0'],
    'play_signing{outcome:unsigned}': ['count==0'],
    'play_signing{outcome:failed}': ['count==0'],
  },
};

const uuid = () =>
  'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => {
    const r = (Math.random() * 16) | 0;
    return (c === 'x' ? r : (r & 0x3) | 0x8).toString(16);
  });
/** backoff for the n-th try again: 1 s doubling to 10 s, ± half (jitter, so a fleet does not come back in step) */
const backoff = (n) => Math.min(10_000, 1000 * 2 ** n) * (0.5 + Math.random());

/** A socket read with no reply (dropped, timed out): failed, tried again as the page's slides are. */
const unanswered = { status: 0 };

/** An HTTP read of a display (async: the VU's other sockets go on meanwhile); resolves with the response. */
const read = (display, path, name, extra = {}) =>
  http.asyncRequest('GET', `${BASE_URL}${path}`, null, {
    headers: { cookie: display.screen.cookie, ...extra },
    tags: { name },
    responseCallback: http.expectedStatuses(200, 304),
  });

/** One display: its socket, its state and its timers. */
function display(screen, end) {
  const d = {
    screen,
    ws: null,
    open: false,
    ref: 0,
    waiting: new Map(), // ref → { type, at, frame, timer }
    version: null,
    loaded: false,
    clock: null,
    pending: [],
    beats: 0,
    timers: [],
    phase: 'run', // run | cut | storm | done
    edited: false,
    /** path → ETag of the content reads it holds (the display page's conditional reads) */
    etags: new Map(),
    /** the playlist's items it last read (a 304 answers with these) */
    items: undefined,
    tookOver: false,
    onPlaying: null,
    /** its key pair, made at boot (a promise until the first flush takes it); `key` the same once the service has
     * bound it: undefined until then, null if refused (unsigned from then on, as the page) */
    keyMade: null,
    pair: null,
    key: undefined,
    /** where its key's chain stands at the service, and the batch signed and not yet answered (the page's outbox) */
    chain: { seq: 0, hash: '' },
    outbox: null,
    signing: false,
  };

  const later = (ms, fn) => {
    const t = setTimeout(() => {
      d.timers = d.timers.filter((x) => x !== t);
      fn();
    }, ms);
    d.timers.push(t);
  };
  const named = (name) => (d.phase === 'storm' ? `storm-${name}` : name);

  const send = (type, body, resolve) => {
    if (!d.open) return false;
    const ref = ++d.ref;
    const frame = { type, ref, body };
    const timer = setTimeout(() => {
      if (!d.waiting.has(ref)) return;
      d.waiting.delete(ref);
      replyFailed.add(1, { type });
      if (type === 'plays') playBatches.add(1, { outcome: 'lost' });
      resolve?.(unanswered);
    }, REPLY_TIMEOUT_MS);
    d.waiting.set(ref, { type, at: Date.now(), frame, timer, resolve });
    d.ws.send(JSON.stringify(frame));
    return true;
  };
  /** the reads waiting on a socket that dropped (or a display switched off): failed, as the page's are */
  const failReads = () => {
    for (const [ref, w] of d.waiting) {
      if (!w.resolve) continue;
      clearTimeout(w.timer);
      d.waiting.delete(ref);
      w.resolve(unanswered);
    }
  };

  const readManifest = async () => {
    // with the version it holds, as the display page's conditional read (the gateway may answer 304 itself)
    const res = await read(
      d,
      '/api/screens/device/me',
      named('manifest'),
      d.version ? { 'If-None-Match': d.version } : {},
    );
    check(res, { 'manifest 200/304': (r) => r.status === 200 || r.status === 304 });
    if (res.status === 304) return res;
    if (res.status !== 200) return null;
    d.version = res.headers.Etag ?? d.version;
    let body = null;
    try {
      body = res.json();
    } catch {}
    sawTakeover(body);
    return res;
  };

  /** The manifest the socket pushed with its version (its text), taken as the page takes it: nothing read. */
  const takeManifest = (msg) => {
    let body = null;
    try {
      body = JSON.parse(msg.manifest);
    } catch {}
    if (!body || typeof body !== 'object') return null;
    d.version = msg.version;
    pushedManifests.add(1);
    sawTakeover(body);
    return body;
  };
  const sawTakeover = (body) => {
    if (TAKEOVER_AT && !d.tookOver && Date.now() >= TAKEOVER_AT && (body?.takeovers ?? []).length > 0) {
      d.tookOver = true;
      takeoverMs.add(Date.now() - TAKEOVER_AT);
      takeoverShown.add(1);
    }
  };

  /**
   * A content read as the display page's: over its socket while it is open (a `playlist` or `pages` frame with the
   * ETag held, answered by a reply with the HTTP read's status, body and ETag), else over HTTP (fetchJsonWithEtag,
   * If-None-Match); a 200 replaces the ETag held. Resolves with what an HTTP response gives the callers.
   */
  const readHeld = async (path, type, id) => {
    const held = d.etags.get(path);
    let res;
    if (d.open) {
      const msg = await new Promise((resolve) => {
        if (!send(type, held ? { id, etag: held } : { id }, resolve)) resolve(unanswered);
      });
      const text = msg.body === undefined ? '' : JSON.stringify(msg.body);
      res = { status: msg.status, json: () => JSON.parse(text), headers: { Etag: msg.etag } };
      check(res, { 'read over the socket answered': (r) => r.status > 0 });
    } else {
      res = await read(d, path, named('content'), held ? { 'If-None-Match': held, 'Cache-Control': 'max-age=0' } : {});
    }
    if (res.status === 200 && res.headers.Etag) d.etags.set(path, res.headers.Etag);
    return res;
  };
  const readPlaylist = () => readHeld(playlistPath(), 'playlist', setup.playlistId);
  const readPages = (fileId) => readHeld(pagesPath(fileId), 'pages', fileId);

  const loadContent = async () => {
    const [items, pages] = await Promise.all([readPlaylist(), readPages(setup.fileId)]);
    check(items, { 'playlist 200': (r) => r.status === 200 });
    check(pages, { 'pages 200': (r) => r.status === 200 });
    if (items.status !== 200 || pages.status !== 200) return false;
    try {
      d.items = items.json();
    } catch {}
    // a display that boots after the edit reads the edited playlist: it has the edit from then
    if (d.phase === 'run') sawEdit(items);
    // at boot every page image; after the storm only the first before it plays (the rest as it goes)
    const images = d.phase === 'storm' ? setup.images.slice(0, 1) : setup.images;
    for (const path of images) {
      const img = await read(d, path, named('images'));
      check(img, { 'image 200': (r) => r.status === 200 });
      if (img.status !== 200) return false;
    }
    return true;
  };

  const heartbeat = () => {
    d.beats++;
    send('heartbeat', {
      appVersion: 'k6',
      screenSize: { width: 1920, height: 1080 },
      nowPlaying: { fileId: setup.fileId, page: 0 },
      shows: {
        kind: 'page',
        fileId: setup.fileId,
        page: (d.beats % PAGES) + 1,
        shownAt: new Date().toISOString(),
        holdSeconds: HOLD_S,
        loaded: true,
        error: null,
      },
    });
  };

  const flush = async () => {
    if (!d.clock) return;
    const now = Date.now();
    while (d.clock.until + HOLD_S * 1000 <= now) {
      d.pending.push({
        id: uuid(),
        fileId: setup.fileId,
        page: d.clock.page,
        startedAt: new Date(d.clock.until).toISOString(),
        seconds: HOLD_S,
      });
      d.clock.until += HOLD_S * 1000;
      d.clock.page = (d.clock.page % PAGES) + 1;
    }
    if (d.signing || [...d.waiting.values()].some((w) => w.type === 'plays' || w.type === 'key')) return;
    if (!d.outbox && d.pending.length === 0) return;
    // as the page's first flush: its key bound (or where the chain stands) before its first batch; the answer
    // flushes again at once
    d.signing = true;
    try {
      if (d.key === undefined) {
        d.pair ??= await d.keyMade;
        send('key', { publicKey: d.pair.jwk });
        return;
      }
      if (!d.outbox) {
        const plays = d.pending.slice(0, BATCH_MAX);
        d.outbox =
          d.key === null
            ? { body: { plays }, hash: '' }
            : await signBatch(crypto.subtle, d.key, d.chain, plays, new Date().toISOString(), codec);
      }
    } finally {
      d.signing = false;
    }
    if (d.phase === 'run') send('plays', d.outbox.body);
  };
  const flushNow = () =>
    flush().catch((e) => {
      signing.add(1, { outcome: 'failed' });
      console.error(`signing failed: ${e}`);
    });

  /** The `key` frame's answer: bound (the chain from where the service has it), refused (unsigned from then on), or
   * neither (429/503, lost: asked again at the next flush). */
  const onKey = (msg) => {
    if (msg.status === 200) {
      if (d.key === undefined) signing.add(1, { outcome: 'key-bound' });
      d.key = d.pair;
      // nothing signed waiting: the service's head is the chain's
      if (!d.outbox) d.chain = msg.body?.head ?? { seq: 0, hash: '' };
      flushNow();
    } else if (msg.status === 400 || msg.status === 409) {
      signing.add(1, { outcome: 'key-refused' });
      d.key = null;
    }
  };

  const onReply = (msg) => {
    const w = d.waiting.get(msg.ref);
    if (!w) return;
    d.waiting.delete(msg.ref);
    clearTimeout(w.timer);
    if (d.phase === 'run') reply.add(Date.now() - w.at, { type: w.type });
    // a read's 304: the ETag held is current
    const ok = msg.status === 200 || (w.resolve !== undefined && msg.status === 304);
    replyFailed.add(!ok, { type: w.type });
    check(msg, { [`${w.type} reply 200`]: () => ok });
    if (w.resolve) return w.resolve(msg);
    if (w.type === 'key') return onKey(msg);
    if (w.type !== 'plays') return;
    const body = w.frame.body;
    const sent = body.plays.length;
    if (ok) {
      // the chain moves on once the service has the batch (a resend of a batch it had is answered as taken too)
      if (body.signed) d.chain = { seq: body.signed.seq, hash: d.outbox?.body === body ? d.outbox.hash : '' };
      signing.add(1, { outcome: body.signed ? 'signed' : 'unsigned' });
      const b = msg.body ?? {};
      playBatches.add(1, { outcome: b.refused > 0 ? 'records-refused' : 'accepted' });
      playRecords.add(b.accepted ?? 0, { outcome: 'accepted' });
      playRecords.add(b.duplicates ?? 0, { outcome: 'duplicate' });
      playRecords.add(b.refused ?? 0, { outcome: 'refused' });
    } else playBatches.add(1, { outcome: msg.status === 429 || msg.status === 503 ? 'retry' : 'refused' });
    // answered (or refused for good with a 400): forgotten; 429/503: sent again as it was
    if (ok || msg.status === 400) {
      d.pending = d.pending.slice(sent);
      d.outbox = null;
    }
    // the service's chain is elsewhere (PLAY_CHAIN_CONFLICT): signed again after its head, at the next flush
    if (msg.status === 409 && body.signed) {
      d.chain = msg.body?.details?.head ?? { seq: 0, hash: '' };
      d.outbox = null;
    }
  };

  const wait = (ms) => new Promise((resolve) => later(ms, resolve));
  /** fn until it succeeds, each failure counted as a refusal of `what` and tried again after backoff */
  const untilOk = async (what, fn) => {
    for (let n = 0; d.phase === 'storm'; n++) {
      if (await fn()) return true;
      stormRefusals.add(1, { outcome: what });
      await wait(backoff(n));
    }
    return false;
  };
  /** after the power cut: manifest (unless the socket gave it), playlist, pages, first image, each tried again until
   * it answers */
  const stormBoot = async (msg) => {
    const given = msg.manifest !== undefined && takeManifest(msg) !== null;
    if (
      (given || (await untilOk('manifest', async () => (await readManifest()) !== null))) &&
      (await untilOk('content', loadContent))
    )
      d.onPlaying();
  };

  const onManifest = async (msg) => {
    if (d.helloAt) {
      hello.add(Date.now() - d.helloAt, { phase: d.phase });
      d.helloAt = 0;
    }
    if (d.phase === 'storm') {
      if (!d.booting) {
        d.booting = true;
        await stormBoot(msg);
      }
      return;
    }
    if (msg.version === d.version) return;
    // the page takes a manifest pushed with its version, else reads it (a version alone, another device's screen)
    const res = (msg.manifest !== undefined && takeManifest(msg)) || (await readManifest());
    if (!res) return;
    if (!d.loaded) {
      d.loaded = await loadContent();
      if (!d.loaded) return;
      // it plays from here on: its page clock starts, its timers run until the end of the run
      d.clock = { until: Date.now(), page: 1 };
      const beat = () => {
        if (d.phase !== 'run' || Date.now() >= end) return;
        heartbeat();
        later(HEARTBEAT_MS, beat);
      };
      const batch = () => {
        if (d.phase !== 'run' || Date.now() >= end) return;
        flushNow();
        later(FLUSH_MS, batch);
      };
      beat();
      later(FLUSH_MS, batch);
    }
  };

  /** the playlist edit counted once per display, when a playlist it read after the edit holds the new file */
  const sawEdit = (res) => {
    if (res.status !== 200 || !EDIT_AT || d.edited || Date.now() < EDIT_AT) return;
    let items = [];
    try {
      items = res.json();
    } catch {}
    if (Array.isArray(items) && items.some((i) => i.fileId === setup.editFileId)) {
      d.edited = true;
      editMs.add(Date.now() - EDIT_AT);
      editShown.add(1);
    }
  };

  /**
   * After a change: the playlist, then the pages of each file it plays, in order (the display page's slides); true
   * once all answered. A 304 playlist: the items read last (a read that failed after it is asked again).
   */
  const readChange = async () => {
    const items = await readPlaylist();
    sawEdit(items);
    if (items.status === 200) {
      try {
        d.items = items.json();
      } catch {}
    } else if (items.status !== 304) return false;
    if (!Array.isArray(d.items)) return items.status === 304;
    for (const i of [...d.items].sort((a, b) => a.position - b.position)) {
      if (i.file === null) continue;
      const res = await readPages(i.fileId);
      check(res, { 'pages 200/304': (r) => r.status === 200 || r.status === 304 });
      if (res.status !== 200 && res.status !== 304) return false;
    }
    return true;
  };
  /** As the page's slides after a change: a failed read is tried again after its backoff (use-display-player.ts). */
  const contentAfterChange = async () => {
    for (let n = 0; d.phase === 'run' && Date.now() < end; n++) {
      if (await readChange()) return;
      changeRetries.add(1);
      await wait(backoff(n));
    }
  };

  const onEvent = async (msg) => {
    const type = msg.event?.type ?? '';
    if (!(type === PLAYLIST_SAVED || type.includes('playlist.saved'))) return;
    await Promise.all(Array.from({ length: CHANGE_READS }, contentAfterChange));
  };

  /** Opens the socket; on a refusal or a drop, tries again with backoff (unless the display is off). */
  const open = (attempt = 0) => {
    if (d.phase === 'done' || d.phase === 'cut') return;
    // its key pair, at its boot (the page keeps it in IndexedDB: a power cut keeps it, and the chain with it): the
    // one its pairing bound (the screens file's), else made now and bound by its first `key` frame (a display paired
    // before it could sign)
    d.keyMade ??= screen.key ? importDisplayKey(crypto.subtle, screen.key) : makeDisplayKey(crypto.subtle);
    const t0 = Date.now();
    let opened = false;
    const ws = new WebSocket(WS_URL, null, {
      headers: { Cookie: screen.cookie, Origin: ORIGIN },
      tags: { name: named('socket') },
    });
    d.ws = ws;
    ws.onopen = () => {
      opened = true;
      d.open = true;
      connect.add(Date.now() - t0, { phase: d.phase });
      d.helloAt = Date.now();
      ws.send(JSON.stringify({ type: 'hello', version: d.version }));
      // as the display page watches what it plays: its playlist and the playlist's file (changes come as events)
      ws.send(JSON.stringify({ type: 'watch', playlists: [setup.playlistId], files: [setup.fileId] }));
      // a batch not answered before a drop is sent again on the new socket (idempotent by record id); the reads
      // were failed at the drop (failReads), so what else waits is a call not worth sending again (a heartbeat)
      for (const [ref, w] of d.waiting) {
        if (w.type === 'plays') ws.send(JSON.stringify(w.frame));
        else d.waiting.delete(ref);
      }
    };
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (msg.type === 'reply') onReply(msg);
      else if (msg.type === 'manifest') onManifest(msg);
      else if (msg.type === 'event') onEvent(msg);
    };
    // a refused upgrade ends in an error event alone (k6 emits no close for it), a drop in close (maybe after an
    // error): either way once per socket
    let ended = false;
    const ends = () => {
      if (ended) return;
      ended = true;
      d.open = false;
      failReads();
      if (d.ws !== ws || d.phase === 'done' || d.phase === 'cut' || (d.phase === 'run' && Date.now() >= end)) return;
      if (!opened) {
        if (d.phase === 'storm') stormRefusals.add(1, { outcome: 'upgrade' });
        else check(null, { 'socket opened': () => false });
      } else if (d.phase === 'run') drops.add(1);
      // after the power cut, a socket closed before its display plays (1013 "try again": hello not answered)
      else if (d.phase === 'storm') stormRefusals.add(1, { outcome: 'closed' });
      later(backoff(opened ? 0 : attempt), () => open(opened ? 0 : attempt + 1));
    };
    ws.onerror = () => {
      if (!opened) ends();
    };
    ws.onclose = ends;
  };

  /** The power cut: socket gone, state forgotten; back at a random moment of the spread, timed until it plays. */
  const powerCut = () => {
    d.phase = 'cut';
    for (const t of d.timers) clearTimeout(t);
    d.timers = [];
    failReads();
    for (const w of d.waiting.values()) clearTimeout(w.timer);
    d.waiting.clear();
    d.open = false;
    d.ws?.close();
    Object.assign(d, {
      version: null,
      loaded: false,
      clock: null,
      pending: [],
      booting: false,
      etags: new Map(),
      items: undefined,
    });
    const giveUp = STORM_AT + STORM_SPREAD_MS + STORM_GIVE_UP_MS;
    d.onPlaying = () => {
      stormMs.add(Date.now() - STORM_AT);
      stormFromBoot.add(Date.now() - d.backAt);
      stormPlaying.add(1);
      stop();
    };
    later(Math.random() * STORM_SPREAD_MS, () => {
      d.phase = 'storm';
      d.backAt = Date.now();
      open();
    });
    later(giveUp - Date.now(), stop);
  };

  const stop = () => {
    d.phase = 'done';
    for (const t of d.timers) clearTimeout(t);
    d.timers = [];
    failReads();
    for (const w of d.waiting.values()) clearTimeout(w.timer);
    d.waiting.clear();
    d.open = false;
    d.ws?.close();
  };

  return { d, open, powerCut, stop };
}

export default function () {
  // this VU's displays: every VUS-th from its place in the scenario (see load/screens.js for why not __VU)
  const slot = exec.scenario.iterationInTest;
  const start = Date.now();
  const end = start + RUN_S * 1000;
  const mine = [];
  for (let i = slot; i < screens.length; i += vus) mine.push(display(screens[i], end));
  for (const one of mine) setTimeout(() => one.open(), Math.random() * BOOT_SPREAD_S * 1000);
  // the end of the run: the storm (its displays stop themselves once they play or give up), or every socket closed
  setTimeout(
    () => {
      for (const one of mine) {
        if (STORM_AT && STORM_SPREAD_MS > 0) one.powerCut();
        else one.stop();
      }
    },
    Math.max(0, (STORM_AT || end) - Date.now()),
  );
}

/** The operator's fleet view, from when every display has booted until the end of the run (as load/screens.js). */
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
