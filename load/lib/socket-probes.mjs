// The changes the socket scenario times (load/lib/screens-socket.js), made as the owner at the moments agreed with k6
// through the environment (EDIT_AT_MS, TAKEOVER_AT_MS: epoch ms on the machine's one clock): the playlist edit (the
// owner adds the second file to the playlist every display plays) and a takeover on all screens of the file they
// already play (their play records go on, counted as the takeover's). The displays time them on their sockets; here
// only the calls, and end() ends the takeover after the run.
import { ownerCall } from './fleet-streams.mjs';

export function socketProbes({ base, setup, editAt, takeoverAt, say }) {
  const owner = ownerCall(base, setup);
  let takeoverId = null;
  const at = (epochMs, fn) =>
    new Promise((resolve) =>
      setTimeout(() => fn().then(resolve, (e) => resolve(say(e.message))), epochMs - Date.now()),
    );
  const timed = async (what, call) => {
    const t0 = performance.now();
    const res = await call();
    const text = await res.text();
    if (!res.ok) throw new Error(`${what}: ${res.status} ${text}`);
    say(`${what} made (answered in ${Math.round(performance.now() - t0)} ms); the displays time it on their sockets`);
    return text;
  };
  const edit = at(editAt, () =>
    timed('playlist edit', () =>
      owner('PUT', `/api/playlists/${setup.playlistId}/items`, { fileIds: [setup.fileId, setup.editFileId] }),
    ),
  );
  const takeover = at(takeoverAt, async () => {
    const text = await timed('takeover', () =>
      owner('POST', '/api/screens/takeovers', {
        target: { kind: 'all' },
        content: { kind: 'file', fileId: setup.fileId },
        minutes: 30,
      }),
    );
    takeoverId = JSON.parse(text).id;
  });
  return {
    /** waits for both calls, then ends the takeover */
    async end() {
      await Promise.all([edit, takeover]);
      if (takeoverId) await owner('DELETE', `/api/screens/takeovers/${takeoverId}`).catch(() => undefined);
    },
  };
}
