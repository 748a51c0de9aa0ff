// Prepares the screens scenario (npm run load -- screens): a verified member, one converted PDF in a playlist (and a
// second converted PDF, which the edit of the run adds to it), and SCREENS paired displays through the real API, each
// assigned the playlist. PAIRING=bulk (the default): in waves of 100, each display asks for its code, the member
// claims the wave's codes in one POST /api/screens/bulk-pairing, each display polls for its cookie; then one bulk
// change (POST /api/screens/bulk) assigns the playlist to all. PAIRING=single: code → POST /api/screens → poll →
// PUT /api/screens/:id per display, 20 at a time (the path before bulk pairing).
// Writes .data/test/load-screens.json for k6: the device tokens and the page images to fetch once.
import { randomUUID, webcrypto } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeStoredDisplayKey } from './play-signing.js';

async function json(res, what) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

async function member(base, mailUrl) {
  const email = `load-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'correct horse battery staple';
  const post = (path, body, headers = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  await json(await post('/api/auth/register', { email, password, firstName: 'Load', lastName: 'Test' }), 'register');
  let token;
  for (let i = 0; i < 50 && !token; i++) {
    const mails = await (await fetch(`${mailUrl}/email`)).json();
    token = mails.find((m) => m.headers?.to?.includes(email))?.text?.match(/verify-email\?token=([A-Za-z0-9_-]+)/)?.[1];
    if (!token) await new Promise((r) => setTimeout(r, 300));
  }
  if (!token) throw new Error('no verification e-mail');
  await json(await post('/api/auth/verify-email', { token }), 'verify');
  const login = await post('/api/auth/local-login', { email, password });
  await json(login, 'login');
  const cookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('pc_session='))
    ?.split(';')[0];
  const call = async (method, path, body) => {
    const isForm = body instanceof FormData;
    return json(
      await fetch(`${base}${path}`, {
        method,
        headers: { cookie, ...(body === undefined || isForm ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      }),
      `${method} ${path}`,
    );
  };
  call.cookie = cookie;
  return call;
}

async function pairOne(base, call, playlistId, i) {
  const started = await json(await fetch(`${base}/api/screens/pairing`, { method: 'POST' }), 'pairing');
  const screen = await call('POST', '/api/screens', { code: started.code, name: `load ${i}` });
  const polled = await fetch(`${base}/api/screens/pairing/${started.pairingId}/poll`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pollSecret: started.pollSecret }),
  });
  await json(polled, 'poll');
  const token = polled.headers
    .getSetCookie()
    .find((c) => c.startsWith('pc_device='))
    ?.split(';')[0];
  if (!token) throw new Error('no device cookie');
  await call('PUT', `/api/screens/${screen.id}`, { assignment: { kind: 'playlist', playlistId } });
  return { cookie: token, screenId: screen.id };
}

/** `count` displays paired in waves of 100 codes claimed at once, then assigned the playlist in one bulk change. */
async function pairInBulk(base, call, playlistId, count, say) {
  const screens = [];
  const started = performance.now();
  for (let i = 0; i < count; i += 100) {
    const n = Math.min(100, count - i);
    const displays = await inParallel(n, 25, async () =>
      json(await fetch(`${base}/api/screens/pairing`, { method: 'POST' }), 'pairing'),
    );
    const { results } = await call('POST', '/api/screens/bulk-pairing', {
      screens: displays.map((d, j) => ({ code: d.code, name: `load ${i + j}` })),
    });
    const refused = results.filter((r) => r.status !== 'paired');
    if (refused.length) throw new Error(`bulk pairing refused ${refused.length} codes`);
    screens.push(
      ...(await inParallel(n, 25, async (j) => {
        const d = displays[j];
        // its key pair, bound by the poll that hands out its credential, as the display page's poll binds it
        const key = await makeStoredDisplayKey(webcrypto.subtle);
        const polled = await fetch(`${base}/api/screens/pairing/${d.pairingId}/poll`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ pollSecret: d.pollSecret, publicKey: key.jwk }),
        });
        await json(polled, 'poll');
        const cookie = polled.headers
          .getSetCookie()
          .find((c) => c.startsWith('pc_device='))
          ?.split(';')[0];
        if (!cookie) throw new Error('no device cookie');
        return { cookie, screenId: results[j].screenId, key };
      })),
    );
    if ((i / 100) % 10 === 9)
      say?.(`${screens.length} paired (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  // the screens service learns of a new playlist by event: until it has, the bulk change answers 404
  // PLAYLIST_NOT_FOUND (as it would to a member who assigns the instant they saved); try again for up to 30 s
  for (let tries = 0; ; tries++) {
    try {
      await call('POST', '/api/screens/bulk', {
        selection: { by: 'filter' },
        change: { kind: 'assign', assignment: { kind: 'playlist', playlistId } },
      });
      break;
    } catch (err) {
      if (tries >= 60 || !String(err.message).includes('PLAYLIST_NOT_FOUND')) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  return screens;
}

/** fn(0..n-1) with at most `width` running at once; the results in order. */
async function inParallel(n, width, fn) {
  const out = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, n) }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await fn(i);
      }
    }),
  );
  return out;
}

async function upload(call, corpus, name, title) {
  const form = new FormData();
  form.append('pdf', new Blob([readFileSync(join(corpus, name))], { type: 'application/pdf' }), name);
  form.append('title', title);
  const file = await call('POST', '/api/files/upload', form);
  for (let i = 0; i < 180; i++) {
    const now = await call('GET', `/api/files/${file.id}?signage_mode=true`);
    if (now.status !== 'processing') break;
    await new Promise((r) => setTimeout(r, 500));
  }
  return file;
}

export async function pairScreens({ base, mailUrl, count, out, corpus, mode = 'bulk', say }) {
  const call = await member(base, mailUrl);
  const [file, second] = await Promise.all([
    upload(call, corpus, 'vertical.pdf', 'Load content'),
    upload(call, corpus, 'cmykjpeg.pdf', 'Load edit'),
  ]);
  const pages = await call('GET', `/api/files/${file.id}/pages?signage_mode=true`);
  const playlist = await call('POST', '/api/playlists', { name: 'Load' });
  await call('PUT', `/api/playlists/${playlist.id}/items`, { fileIds: [file.id] });
  const screens = [];
  if (mode === 'bulk') screens.push(...(await pairInBulk(base, call, playlist.id, count, say)));
  else {
    for (let i = 0; i < count; i += 20) {
      const chunk = Array.from({ length: Math.min(20, count - i) }, (_, j) => pairOne(base, call, playlist.id, i + j));
      screens.push(...(await Promise.all(chunk)));
    }
  }
  writeFileSync(
    out,
    JSON.stringify({
      fileId: file.id,
      // the file the playlist edit of the run adds (load/lib/fleet-streams.mjs)
      editFileId: second.id,
      playlistId: playlist.id,
      images: pages.map((p) => p.imagePath),
      screens,
      // the member's session: the takeover of the run (load/lib/takeover-probe.mjs)
      ownerCookie: call.cookie,
    }),
  );
  return screens.length;
}
