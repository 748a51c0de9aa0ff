// The takeover figure of `npm run load -- screens` (issue 37): every paired display's live stream is held here
// (a display's GET /api/events with its device cookie, as the display page opens it); in the middle of the run the
// owner starts one takeover on all screens, and each display counts as showing it when its stream has told it of
// the change and its manifest (GET /api/screens/device/me, as the display re-reads it) holds the takeover. Printed:
// the time from the start call until every display shows it, and p50/p95/max per display, beside the number of
// screens. The takeover runs until the end of the run (the k6 displays see it in their manifest and report no page
// from its start on, as a display showing it would); end() ends it afterwards.

const CHANGED = 'screens.screen.changed.v1';
const GIVE_UP_MS = 30_000;

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** One display's stream: calls `onChange` at each screen change it is told of. */
function holdStream(base, screen, playlistId, signal, onChange) {
  const opened = fetch(`${base}/api/events?playlist=${encodeURIComponent(playlistId)}`, {
    headers: { cookie: screen.cookie, accept: 'text/event-stream' },
    signal,
  }).then(async (res) => {
    if (!res.ok || !res.body) throw new Error(`stream of ${screen.screenId}: ${res.status}`);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += value;
          let at = buffer.indexOf('\n\n');
          while (at >= 0) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            if (block.split('\n').some((l) => l === `event: ${CHANGED}` || l === `event:${CHANGED}`)) onChange();
            at = buffer.indexOf('\n\n');
          }
        }
      } catch {
        // aborted at the end
      }
    })();
  });
  return opened;
}

/**
 * Opens the streams now; at `atMs` from now starts the takeover and measures. `done` resolves true when every
 * display showed it (the figures are printed; a failure is printed and resolves false), and closes the streams.
 */
export function takeoverProbe({ base, setup, atMs, say }) {
  const abort = new AbortController();
  const screens = setup.screens;
  const waiters = new Map(screens.map((s) => [s.screenId, []]));
  const told = (screenId) => {
    const list = waiters.get(screenId) ?? [];
    waiters.set(screenId, []);
    for (const w of list) w();
  };
  const nextChange = (screenId) => new Promise((resolve) => waiters.get(screenId).push(resolve));
  const opened = Promise.all(
    screens.map((s) => holdStream(base, s, setup.playlistId, abort.signal, () => told(s.screenId))),
  );
  const owner = (method, path, body) =>
    fetch(`${base}${path}`, {
      method,
      headers: { cookie: setup.ownerCookie, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const shows = async (screen, takeoverId) => {
    const res = await fetch(`${base}/api/screens/device/me`, { headers: { cookie: screen.cookie } });
    if (!res.ok) return false;
    const manifest = await res.json();
    return (manifest.takeovers ?? []).some((t) => t.id === takeoverId);
  };

  let running = null;
  const done = (async () => {
    await opened;
    await new Promise((r) => setTimeout(r, atMs));
    // every display waits for the next change it is told of (armed before the call: none is missed)
    const armed = new Map(screens.map((s) => [s.screenId, nextChange(s.screenId)]));
    const t0 = performance.now();
    const res = await owner('POST', '/api/screens/takeovers', {
      target: { kind: 'all' },
      content: { kind: 'message', title: '負荷試験の緊急表示', body: 'load test takeover' },
      // it runs until the end of the run (ended then by end()): a display that has not read its manifest since would
      // otherwise report pages it never showed, and be refused
      minutes: 30,
    });
    if (!res.ok) throw new Error(`takeover: ${res.status} ${await res.text()}`);
    const takeover = await res.json();
    const answered = performance.now() - t0;
    const deadline = t0 + GIVE_UP_MS;
    const times = await Promise.all(
      screens.map(async (s) => {
        let event = armed.get(s.screenId);
        while (performance.now() < deadline) {
          const timedOut = await Promise.race([
            event.then(() => false),
            new Promise((r) => setTimeout(() => r(true), Math.max(0, deadline - performance.now()))),
          ]);
          if (timedOut) return null;
          event = nextChange(s.screenId);
          if (await shows(s, takeover.id)) return performance.now() - t0;
        }
        return null;
      }),
    );
    running = takeover.id;
    const shown = times.filter((t) => t !== null).sort((a, b) => a - b);
    const f = (ms) => `${Math.round(ms)} ms`;
    say(
      `takeover on ${screens.length} screens: start call answered in ${f(answered)}; shown on ` +
        `${shown.length}/${screens.length} displays, all of them after ${shown.length === screens.length ? f(shown.at(-1)) : 'n/a'}; ` +
        `per display p50 ${f(percentile(shown, 50))}, p95 ${f(percentile(shown, 95))}, max ${f(shown.at(-1) ?? Number.NaN)}`,
    );
    return shown.length === screens.length;
  })()
    .catch((e) => {
      say(`takeover: ${e.message}`);
      return false;
    })
    .finally(() => abort.abort());
  /** Ends the takeover (after the run). */
  const end = async () => {
    if (running) await owner('DELETE', `/api/screens/takeovers/${running}`).catch(() => undefined);
  };
  return { done, end };
}
