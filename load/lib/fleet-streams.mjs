// The displays' live streams of `npm run load -- screens`, held here in Node rather than in k6: k6 has no
// streaming client (an async request ended by its time-out stood in for each stream, at a few hundred KiB of k6
// memory apiece), and this holds 10,000 on the same cores. Each display's stream is its GET /api/events with its
// device cookie and its playlist watched, as the display page opens it; every event it is told of is parsed and
// handed to whoever waits for it (the takeover, the playlist edit). The calls that are measured (heartbeats,
// manifests, plays, content, images) still go through k6 and the gateway; the probes' own reads go from here.
//
// Also here: the playlist edit (the time until every display has read the edited playlist) and the storm after a
// power cut (every stream cut, then every display back within STORM_SPREAD_S: stream, manifest, playlist, pages and
// first page image, refusals retried as a display does, time until every display plays).

export const SCREEN_CHANGED = 'screens.screen.changed.v1';
export const PLAYLIST_SAVED = 'files.playlist.saved.v1';
const GIVE_UP_MS = 60_000;

export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const ms = (v) => (Number.isFinite(v) ? `${Math.round(v)} ms` : 'n/a');
const sleep = (t) => new Promise((r) => setTimeout(r, t));

/**
 * The probes' own reads (not the streams) at most READS_AT_ONCE at a time: the load process holds one descriptor per
 * stream, and 10,000 streams plus 10,000 reads at once ran it out of descriptors (EMFILE; the hard limit here is
 * 20,000). A read waiting for a slot counts in its display's time.
 */
const READS_AT_ONCE = Number(process.env.PROBE_READS_AT_ONCE ?? 2000);
let reading = 0;
const queued = [];
export async function limitedFetch(url, init) {
  if (reading >= READS_AT_ONCE) await new Promise((r) => queued.push(r));
  reading++;
  try {
    const res = await fetch(url, init);
    const body = await res.arrayBuffer();
    return { ok: res.ok, status: res.status, json: async () => JSON.parse(Buffer.from(body).toString('utf8')) };
  } finally {
    reading--;
    queued.shift()?.();
  }
}

/**
 * A display's read after it was told of a change: `check()` true when it shows the change; a failed read (a
 * reset, a refused connection, a time-out: the probe process opens thousands at once) is tried again after 1 s, as
 * the display does, and counted in `failures`. Resolves the time from `t0` when it shows it, or null at `deadline`.
 */
export async function readUntilShown({ waitFor, check, t0, deadline, failures }) {
  let event = waitFor();
  while (performance.now() < deadline) {
    const timedOut = await Promise.race([
      event.then(() => false),
      sleep(Math.max(0, deadline - performance.now())).then(() => true),
    ]);
    if (timedOut) return null;
    event = waitFor();
    for (;;) {
      const shown = await check().catch((e) => {
        failures.set(e.cause?.code ?? e.message, (failures.get(e.cause?.code ?? e.message) ?? 0) + 1);
        return 'failed';
      });
      if (shown === true) return performance.now() - t0;
      if (shown === false || performance.now() >= deadline) break;
      await sleep(1000);
    }
  }
  return null;
}
export const failureText = (failures) =>
  failures.size ? `; failed reads (tried again): ${[...failures].map(([k, v]) => `${k} ${v}`).join(', ')}` : '';

/** fn(0..n-1) with at most `width` running at once. */
async function inParallel(n, width, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, n) }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

/**
 * Opens every display's stream, `width` connections at a time. `opened` resolves with the number open. waitFor
 * (screenId, type) resolves at the next event of that type on the screen's stream (armed before the change it waits
 * for: none is missed). cut() ends every stream at once; reopen(screen) opens one again (resolves when it answered).
 */
export function holdFleetStreams({ base, setup, width = 100 }) {
  const listeners = new Map(setup.screens.map((s) => [s.screenId, []]));
  const aborts = new Map();
  const counts = { opened: 0, refused: 0, ended: 0 };
  let closing = false;

  const tell = (screenId, type) => {
    const list = listeners.get(screenId) ?? [];
    const keep = [];
    for (const l of list) {
      if (l.type === type) l.resolve();
      else keep.push(l);
    }
    listeners.set(screenId, keep);
  };
  /** one stream; resolves with the answer's status once the headers came */
  const open = async (screen) => {
    const abort = new AbortController();
    aborts.set(screen.screenId, abort);
    const res = await fetch(`${base}/api/events?playlist=${encodeURIComponent(setup.playlistId)}`, {
      headers: { cookie: screen.cookie, accept: 'text/event-stream' },
      signal: abort.signal,
    }).catch(() => null);
    if (!res?.ok || !res.body) {
      counts.refused++;
      return res?.status ?? 0;
    }
    counts.opened++;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let at = buffer.indexOf('\n\n');
          while (at >= 0) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            const line = block.split('\n').find((l) => l.startsWith('event:'));
            if (line) tell(screen.screenId, line.slice(6).trim());
            at = buffer.indexOf('\n\n');
          }
        }
      } catch {
        // cut
      }
      if (!closing && !abort.signal.aborted) counts.ended++;
    })();
    return res.status;
  };

  const opened = (async () => {
    await inParallel(setup.screens.length, width, (i) => open(setup.screens[i]));
    return counts.opened;
  })();

  return {
    opened,
    counts,
    waitFor: (screenId, type) =>
      new Promise((resolve) => {
        listeners.get(screenId)?.push({ type, resolve });
      }),
    cut() {
      for (const a of aborts.values()) a.abort();
      aborts.clear();
    },
    reopen: open,
    close() {
      closing = true;
      this.cut();
    },
  };
}

/** A call of the run's member (the session pair-screens.mjs signed in). */
export const ownerCall = (base, setup) => (method, path, body) =>
  fetch(`${base}${path}`, {
    method,
    headers: { cookie: setup.ownerCookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

/**
 * One change timed on every display: each display's next `subject` event is awaited from before `fire()` (none is
 * missed), then the display reads until `check(screen)` says it has the change (again at each later event, until
 * `giveUpMs`). Returns how long `fire` took to answer, its result, and the sorted times per display that got it.
 */
export async function timeUntilEvery({ screens, streams, subject, fire, check, giveUpMs = GIVE_UP_MS }) {
  const armed = new Map(screens.map((s) => [s.screenId, streams.waitFor(s.screenId, subject)]));
  const t0 = performance.now();
  const fired = await fire();
  const answered = performance.now() - t0;
  const deadline = t0 + giveUpMs;
  const failures = new Map();
  const times = await Promise.all(
    screens.map((s) => {
      let first = armed.get(s.screenId);
      return readUntilShown({
        waitFor: () => {
          const e = first ?? streams.waitFor(s.screenId, subject);
          first = undefined;
          return e;
        },
        check: () => check(s, fired),
        t0,
        deadline,
        failures,
      });
    }),
  );
  const shown = times.filter((t) => t !== null).sort((a, b) => a - b);
  return { fired, answered, shown, failures };
}

/** "… N/M displays, all of them after …; per display p50 …, p95 …, max …" and the failures. */
export const shownText = (shown, total, failures) =>
  `${shown.length}/${total} displays, all of them after ${shown.length === total ? ms(shown.at(-1)) : 'n/a'}; ` +
  `per display p50 ${ms(percentile(shown, 50))}, p95 ${ms(percentile(shown, 95))}, max ${ms(shown.at(-1))}` +
  failureText(failures);

/**
 * The playlist edit: at `atMs` from now the owner adds the second file to the playlist every display plays; each
 * display, told by its stream, reads the playlist again (GET /api/playlists/:id/items with its cookie) until the new
 * file is in it. Printed: the time from the save call until every display had it, p50/p95/max per display.
 */
export function editProbe({ base, setup, streams, atMs, say }) {
  const owner = ownerCall(base, setup);
  const hasEdit = async (screen) => {
    const res = await limitedFetch(`${base}/api/playlists/${setup.playlistId}/items`, {
      headers: { cookie: screen.cookie },
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return (await res.json()).some((item) => item.fileId === setup.editFileId);
  };
  return (async () => {
    await sleep(atMs);
    const screens = setup.screens;
    const { answered, shown, failures } = await timeUntilEvery({
      screens,
      streams,
      subject: PLAYLIST_SAVED,
      fire: async () => {
        const res = await owner('PUT', `/api/playlists/${setup.playlistId}/items`, {
          fileIds: [setup.fileId, setup.editFileId],
        });
        if (!res.ok) throw new Error(`playlist edit: ${res.status} ${await res.text()}`);
      },
      check: hasEdit,
    });
    say(
      `playlist edit on ${screens.length} screens: save answered in ${ms(answered)}; read by ` +
        shownText(shown, screens.length, failures),
    );
    return {
      all: shown.length === screens.length,
      shown: shown.length,
      p95: percentile(shown, 95),
      allMs: shown.length === screens.length ? shown.at(-1) : Number.NaN,
    };
  })().catch((e) => {
    say(`playlist edit: ${e.message}`);
    return { all: false, shown: 0, p95: Number.NaN, allMs: Number.NaN };
  });
}

/**
 * The storm after a power cut: every stream is cut at once, then each display comes back at a random moment of the
 * next `spreadMs` and does what a booting display does before it plays: its stream, its manifest, its playlist and
 * pages, its first page's image. A refused call (429, 503, a reset) is tried again after 1-2 s, as the display's
 * own retry does, until GIVE_UP_MS. Printed: time from the cut until every display plays, p50/p95/max per display
 * from its own boot, refusals by status, and displays that never played. Resolves with those figures (`all`: every
 * display played).
 */
export async function powerCutStorm({ base, setup, streams, spreadMs, say }) {
  streams.cut();
  await sleep(500);
  const refusals = new Map();
  const refuse = (what) => refusals.set(what, (refusals.get(what) ?? 0) + 1);
  const t0 = performance.now();
  const deadline = t0 + spreadMs + GIVE_UP_MS;
  /** the call until it answers 2xx/304 (each refusal counted), or null at the deadline */
  const until = async (label, fn) => {
    while (performance.now() < deadline) {
      const res = await fn().catch(() => null);
      if (res && (res.ok || res.status === 304)) return res;
      refuse(`${label} ${res?.status ?? 'reset'}`);
      await sleep(1000 + Math.random() * 1000);
    }
    return null;
  };
  const times = await Promise.all(
    setup.screens.map(async (screen) => {
      await sleep(Math.random() * spreadMs);
      const booted = performance.now();
      const headers = { cookie: screen.cookie };
      const get = (path) => () => limitedFetch(`${base}${path}`, { headers });
      for (;;) {
        const status = await streams.reopen(screen);
        if (status === 200) break;
        refuse(`stream ${status || 'reset'}`);
        if (performance.now() > deadline) return null;
        await sleep(1000 + Math.random() * 1000);
      }
      const steps = [
        ['manifest', '/api/screens/device/me'],
        ['playlist', `/api/playlists/${setup.playlistId}/items`],
        ['pages', `/api/files/${setup.fileId}/pages?signage_mode=true`],
        ['image', setup.images[0]],
      ];
      for (const [label, path] of steps) {
        const res = await until(label, get(path));
        if (!res) return null;
      }
      return { fromBoot: performance.now() - booted, fromCut: performance.now() - t0 };
    }),
  );
  const played = times.filter(Boolean);
  const fromBoot = played.map((t) => t.fromBoot).sort((a, b) => a - b);
  const last = Math.max(...played.map((t) => t.fromCut));
  const refused = [...refusals.entries()].map(([k, v]) => `${k}: ${v}`).join(', ') || 'none';
  say(
    `power cut storm on ${setup.screens.length} screens (back within ${spreadMs / 1000} s): ${played.length}/` +
      `${setup.screens.length} playing, all of them ${played.length === setup.screens.length ? `${(last / 1000).toFixed(1)} s after the cut` : 'never'}; ` +
      `per display from its boot p50 ${ms(percentile(fromBoot, 50))}, p95 ${ms(percentile(fromBoot, 95))}, max ` +
      `${ms(fromBoot.at(-1))}; refused calls (tried again): ${refused}`,
  );
  return {
    all: played.length === setup.screens.length,
    playing: played.length,
    allMs: played.length === setup.screens.length ? last : Number.NaN,
    p95FromBootMs: percentile(fromBoot, 95),
    refusals: Object.fromEntries(refusals),
  };
}
