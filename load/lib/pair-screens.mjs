// Prepares the screens scenario (npm run load -- screens): a verified member, one converted PDF in a playlist, and
// SCREENS paired displays through the real API (code → claim → poll → device cookie), each assigned the playlist.
// Writes .data/test/load-screens.json for k6: the device tokens and the page images to fetch once.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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

export async function pairScreens({ base, mailUrl, count, out, corpus }) {
  const call = await member(base, mailUrl);
  const form = new FormData();
  form.append('pdf', new Blob([readFileSync(join(corpus, 'vertical.pdf'))], { type: 'application/pdf' }), 'v.pdf');
  form.append('title', 'Load content');
  const file = await call('POST', '/api/files/upload', form);
  for (let i = 0; i < 180; i++) {
    const now = await call('GET', `/api/files/${file.id}?signage_mode=true`);
    if (now.status !== 'processing') break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const pages = await call('GET', `/api/files/${file.id}/pages?signage_mode=true`);
  const playlist = await call('POST', '/api/playlists', { name: 'Load' });
  await call('PUT', `/api/playlists/${playlist.id}/items`, { fileIds: [file.id] });
  const screens = [];
  for (let i = 0; i < count; i += 20) {
    const chunk = Array.from({ length: Math.min(20, count - i) }, (_, j) => pairOne(base, call, playlist.id, i + j));
    screens.push(...(await Promise.all(chunk)));
  }
  writeFileSync(
    out,
    JSON.stringify({
      fileId: file.id,
      playlistId: playlist.id,
      images: pages.map((p) => p.imagePath),
      screens,
      // the member's session: the takeover of the run (load/lib/takeover-probe.mjs)
      ownerCookie: call.cookie,
    }),
  );
  return screens.length;
}
