// The takeover figure of `npm run load -- screens` (issue 37): every paired display's live stream is held by
// fleet-streams.mjs (a display's GET /api/events with its device cookie, as the display page opens it); in the middle of the run the
// owner starts one takeover on all screens, and each display counts as showing it when its stream has told it of
// the change and its manifest (GET /api/screens/device/me, as the display re-reads it) holds the takeover. Printed:
// the time from the start call until every display shows it, and p50/p95/max per display, beside the number of
// screens. The takeover runs until the end of the run (the k6 displays see it in their manifest and report no page
// from its start on, as a display showing it would); end() ends it afterwards.

import { SCREEN_CHANGED as CHANGED, failureText, limitedFetch, percentile, readUntilShown } from './fleet-streams.mjs';

const GIVE_UP_MS = 30_000;

/**
 * At `atMs` from now starts the takeover and measures, on the streams held by fleet-streams.mjs. `done` resolves true
 * when every display showed it (the figures are printed; a failure is printed and resolves false).
 */
export function takeoverProbe({ base, setup, streams, atMs, say }) {
  const screens = setup.screens;
  const nextChange = (screenId) => streams.waitFor(screenId, CHANGED);
  const owner = (method, path, body) =>
    fetch(`${base}${path}`, {
      method,
      headers: { cookie: setup.ownerCookie, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const shows = async (screen, takeoverId) => {
    const res = await limitedFetch(`${base}/api/screens/device/me`, { headers: { cookie: screen.cookie } });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const manifest = await res.json();
    return (manifest.takeovers ?? []).some((t) => t.id === takeoverId);
  };

  let running = null;
  const done = (async () => {
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
    const failures = new Map();
    const times = await Promise.all(
      screens.map((s) => {
        let first = armed.get(s.screenId);
        return readUntilShown({
          waitFor: () => {
            const e = first ?? nextChange(s.screenId);
            first = undefined;
            return e;
          },
          check: () => shows(s, takeover.id),
          t0,
          deadline,
          failures,
        });
      }),
    );
    running = takeover.id;
    const shown = times.filter((t) => t !== null).sort((a, b) => a - b);
    const f = (ms) => `${Math.round(ms)} ms`;
    say(
      `takeover on ${screens.length} screens: start call answered in ${f(answered)}; shown on ` +
        `${shown.length}/${screens.length} displays, all of them after ${shown.length === screens.length ? f(shown.at(-1)) : 'n/a'}; ` +
        `per display p50 ${f(percentile(shown, 50))}, p95 ${f(percentile(shown, 95))}, max ${f(shown.at(-1) ?? Number.NaN)}` +
        failureText(failures),
    );
    return shown.length === screens.length;
  })().catch((e) => {
    say(`takeover: ${e.message}`);
    return false;
  });
  /** Ends the takeover (after the run). */
  const end = async () => {
    if (running) await owner('DELETE', `/api/screens/takeovers/${running}`).catch(() => undefined);
  };
  return { done, end };
}
