// The takeover figure of `npm run load -- screens`: every paired display's live stream is held by
// fleet-streams.mjs (a display's GET /api/events with its device cookie, as the display page opens it); in the middle of the run the
// owner starts one takeover on all screens, and each display counts as showing it when its stream has told it of
// the change and its manifest (GET /api/screens/device/me, as the display re-reads it) holds the takeover. Printed:
// the time from the start call until every display shows it, and p50/p95/max per display, beside the number of
// screens. The takeover shows the file the playlist plays (so the k6 displays' play records go on, counted as the
// takeover's) and runs until the end of the run; end() ends it afterwards.

import { limitedFetch, ownerCall, percentile, SCREEN_CHANGED, shownText, timeUntilEvery } from './fleet-streams.mjs';

const GIVE_UP_MS = 30_000;

/**
 * At `atMs` from now starts the takeover and measures, on the streams held by fleet-streams.mjs. `done` resolves with
 * `all` (every display showed it), how many did, the p95 per display and the time until all did (printed too; a
 * failure is printed and resolves `all: false`).
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
          // the file the displays already play, from the library: a display under it goes on showing that file's
          // pages and reporting them (counted as the takeover's plays), so the run's play batches go on through the
          // takeover (a message takeover shows no page: the displays would report nothing from the middle of the run)
          content: { kind: 'file', fileId: setup.fileId },
          // it runs until the end of the run (ended then by end())
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
    const all = fired !== undefined && shown.length === screens.length;
    return { all, shown: shown.length, p95: percentile(shown, 95), allMs: all ? shown.at(-1) : Number.NaN };
  })().catch((e) => {
    say(`takeover: ${e.message}`);
    return { all: false, shown: 0, p95: Number.NaN, allMs: Number.NaN };
  });
  /** Ends the takeover (after the run). */
  const end = async () => {
    if (running) await owner('DELETE', `/api/screens/takeovers/${running}`).catch(() => undefined);
  };
  return { done, end };
}
