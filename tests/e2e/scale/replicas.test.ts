// Two of everything (README, "Replicas"): the stack of this project runs two gateways behind nginx and two of each
// service. Here each connection is sent to ONE gateway on purpose (its own address, not nginx's round robin), so a
// fact made through gateway B must reach what is connected to gateway A through the shared servers (NATS), never
// through a process's memory.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createVerifiedMember } from '../test/account';
import { baseUrl } from '../test/browser';
import {
  type Api,
  createPlaylist,
  openPlayerBrowser,
  type PlayerBrowser,
  signedInMember,
  type UploadedFile,
  uploadPdf,
} from '../test/player-helpers';

const root = '[data-player="signage"]';

/** The two gateways' own addresses (the stack gives one per replica). */
function twoGateways(): [string, string] {
  const gateways = inject('gateways') ?? [];
  if (gateways.length < 2) throw new Error(`needs a stack with two gateways, got ${gateways.length}`);
  return [gateways[0] as string, gateways[1] as string];
}

/** A session cookie of `member`, signed in through `gateway`. */
async function signIn(gateway: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${gateway}/api/auth/local-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login through ${gateway}: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('pc_session='))
    ?.split(';')[0];
  if (!cookie) throw new Error('login: no pc_session cookie');
  return cookie;
}

describe('two gateways, two of each service', () => {
  let api: Api;
  let three: UploadedFile;
  let one: UploadedFile;
  let session: PlayerBrowser | undefined;

  beforeAll(async () => {
    api = await signedInMember();
    [three, one] = await Promise.all([
      uploadPdf(api, 'vertical.pdf', 'Three pages', 1),
      uploadPdf(api, 'noembed-sjis.pdf', 'One page', 1),
    ]);
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  it('nginx spreads requests over both gateways (round robin, no sticky sessions)', async () => {
    const [a, b] = twoGateways();
    expect(a).not.toBe(b);
    expect(baseUrl()).not.toBe(a);
    // Each gateway answers for the same member with the same cookie: no state of its own decides who she is.
    for (const gateway of [a, b]) {
      const res = await fetch(`${gateway}/api/auth/user`, { headers: { cookie: api.cookie } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { email: string }).email).toBe(api.member.email);
    }
  });

  it('a player connected to gateway A takes a playlist edit saved through gateway B, without a reload', async () => {
    const [a, b] = twoGateways();
    const playlistId = await createPlaylist(api, 'Across gateways', [three.id]);
    session = await openPlayerBrowser(api);
    const { page } = session;
    const hosts = new Set<string>();
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/')) hosts.add(url.origin);
    });
    // The page, its API calls and its live stream all go to gateway A (same origin), none through nginx.
    await page.goto(`${a}/signage/${three.id}?playlist=${playlistId}&index=0&autoplay=true`);
    await page.waitForFunction((s) => document.querySelector(s)?.getAttribute('data-live') === 'open', root);
    await page.waitForFunction(
      ({ s, files }) => document.querySelector(s)?.getAttribute('data-playlist-files') === files,
      { s: root, files: three.id },
    );
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });

    // the edit, through gateway B only
    const saved = await fetch(`${b}/api/playlists/${playlistId}/items`, {
      method: 'PUT',
      headers: { cookie: api.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ fileIds: [one.id, three.id] }),
    });
    expect(saved.status).toBe(200);
    await page.waitForFunction(
      ({ s, files }) => document.querySelector(s)?.getAttribute('data-playlist-files') === files,
      { s: root, files: `${one.id},${three.id}` },
      { timeout: 15_000 },
    );
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect([...hosts]).toEqual([new URL(a).origin]);
  });

  it('a file deleted through gateway B: gateway A stops serving its page image, which it had just served', async () => {
    const [a, b] = twoGateways();
    // a document no other file of this member shows (a page image shown by another of her files stays hers)
    const doomed = await uploadPdf(api, 'cmykjpeg.pdf', 'Doomed', 1);
    const pages = await api.json<Array<{ imagePath: string }>>('GET', `/api/files/${doomed.id}/pages`);
    const image = pages[0]?.imagePath as string;
    // Both gateways now hold the owner's decision (kept up to MEDIA_ACCESS_MAX_MS, 60 s by default) and the bytes.
    for (const gateway of [a, b]) {
      expect((await fetch(`${gateway}${image}`, { headers: { cookie: api.cookie } })).status).toBe(200);
    }
    const deleted = await fetch(`${b}/api/files/${doomed.id}`, { method: 'DELETE', headers: { cookie: api.cookie } });
    expect(deleted.status).toBe(200);
    // The deletion event drops the decision on gateway A too: it asks again and is refused, well within the 60 s.
    await expect
      .poll(async () => (await fetch(`${a}${image}`, { headers: { cookie: api.cookie } })).status, { timeout: 10_000 })
      .toBe(404);
  });

  it("a password change through gateway B ends the member's other session on gateway A, its live stream too", async () => {
    const [a, b] = twoGateways();
    const member = await createVerifiedMember();
    const onA = await signIn(a, member.email, member.password);
    const onB = await signIn(b, member.email, member.password);
    // a live stream of the first session, held open by gateway A
    const stream = await fetch(`${a}/api/events`, { headers: { cookie: onA, accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const ended = (async () => {
      for (;;) if ((await reader.read()).done) return true;
    })();

    const changed = await fetch(`${b}/api/user/password`, {
      method: 'PUT',
      headers: { cookie: onB, 'content-type': 'application/json' },
      body: JSON.stringify({
        currentPassword: member.password,
        newPassword: 'another long passphrase 2',
        confirmPassword: 'another long passphrase 2',
      }),
    });
    expect(changed.status).toBe(200);
    // Gateway A hears the revocation from NATS: it closes the stream, then refuses the session.
    expect(await ended).toBe(true);
    const after = await fetch(`${a}/api/auth/user`, { headers: { cookie: onA } });
    expect(after.status).toBe(401);
    // the session that changed the password stays signed in, on either gateway
    for (const gateway of [a, b]) {
      expect((await fetch(`${gateway}/api/auth/user`, { headers: { cookie: onB } })).status).toBe(200);
    }
  });
});
