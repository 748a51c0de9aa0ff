// The takeover figure of `npm run load -- screens` (issue 37): every paired display's live stream is held by
// fleet-streams.mjs (a display's GET /api/events with its device cookie, as the display page opens it); in the middle of the run the
// owner starts one takeover on all screens, and each display counts as showing it when its stream has told it of
// the change and its manifest (GET /api/screens/device/me, as the display re-reads it) holds the takeover. Printed:
// the time from the start call until every display shows it, and p50/p95/max per display, beside the number of
// screens. The takeover runs until the end of the run (the k6 displays see it in their manifest and report no page
// from its start on, as a display showing it would); end() ends it afterwards.

import { ownerCall, SCREEN_CHANGED, limitedFetch, shownText, timeUntilEvery } from './fleet-streams.mjs';

const GIVE_UP_MS = 30_000;

/**
 * At `atMs` from now starts the takeover and measures, on the streams held by fleet-streams.mjs. `done` resolves true
 * when every display showed it (the figures are printed; a failure is printed and resolves false).
 */
export function takeoverProbe({ base, setup, streams, atMs, say }) {
  const screens = setup.screens;
  const owner = ownerCall(base, setup);
  const shows = async (screen, takeoverId) => {
    const res = await limitedFetch(`${base}/api/screens/device/me`, { headers: { cookie: screen.cookie } });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const manifest = await res.json();
    return (manifest.takeovers ?? []).some((t) => t.id === takeoverId);
  };

  let running = null;
  const done = (async () => {
    await new Promise((r) => setTimeout(r, atMs));
    const { fired, answered, shown, failures } = await timeUntilEvery({
      screens,
      streams,
      subject: SCREEN_CHANGED,
      giveUpMs: GIVE_UP_MS,
      fire: async () => {
        const res = await owner('POST', '/api/screens/takeovers', {
          target: { kind: 'all' },
          content: { kind: 'message', title: '負荷試験の緊急表示', body: 'load test takeover' },
          // it runs until the end of the run (ended then by end()): a display that has not read its manifest since
          // would otherwise report pages it never showed, and be refused
          minutes: 30,
        });
        if (!res.ok) throw new Error(`takeover: ${res.status} ${await res.text()}`);
        const takeover = await res.json();
        running = takeover.id;
        return takeover;
      },
      check: (screen, takeover) => shows(screen, takeover.id),
    });
    say(
      `takeover on ${screens.length} screens: start call answered in ${Math.round(answered)} ms; shown on ` +
        shownText(shown, screens.length, failures),
    );
    return fired !== undefined && shown.length === screens.length;
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
