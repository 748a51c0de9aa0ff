// Screens against the real service (FerretDB, NATS): pairing by code, the device's own identity, revocation,
// schedules, heartbeats and proof of play, and every refusal with its stable code.
import { randomUUID } from 'node:crypto';
import {
  createEvent,
  DEVICE_COOKIE,
  DeviceClaims,
  PairingStarted,
  Screen,
  ScreenList,
  subjects,
} from '@pagecast/contracts';
import { testSeed } from '@pagecast/service-kit/testing';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { announcer, call, eventsHandled, from, member, sendPlays, useService } from './helpers';

const svc = useService({ PAIRING_RATE_MAX: '4', PAIR_ATTEMPT_RATE_MAX: '6' });

/**
 * A display's address: each test its own, so the pairing rate limit of one does not spill into another. Drawn from
 * the seed printed at the start (PAGECAST_TEST_SEED replays it), never the same one twice in a run.
 */
const { random } = testSeed('screens: display addresses');
const addressesGiven = new Set<string>();
const address = (): string => {
  const ip = `10.1.${Math.floor(random() * 250)}.${Math.floor(random() * 250)}`;
  if (addressesGiven.has(ip)) return address();
  addressesGiven.add(ip);
  return ip;
};

async function startPairing(ip = address()) {
  const res = await call(svc, null, 'POST', '/api/screens/pairing', undefined, from(ip));
  expect(res.status).toBe(201);
  return PairingStarted.parse(res.body);
}

const poll = (p: { pairingId: string; pollSecret: string }) =>
  call(svc, null, 'POST', `/api/screens/pairing/${p.pairingId}/poll`, { pollSecret: p.pollSecret });

/** Pairs a new display for `owner`; returns the screen and the device identity its token stands for. */
async function paired(owner: { userId: string }, name = 'Shop window') {
  const p = await startPairing();
  const res = await call(svc, owner, 'POST', '/api/screens', { code: p.code, name });
  expect(res.status).toBe(201);
  const screen = Screen.parse(res.body);
  const polled = await poll(p);
  expect(polled.body).toEqual({ status: 'paired', screenId: screen.id });
  const cookie = polled.headers.get('set-cookie') ?? '';
  const token = cookie.slice(cookie.indexOf('=') + 1, cookie.indexOf(';'));
  const claims = DeviceClaims.parse(decode(token));
  return { screen, token, device: { deviceId: claims.sub, screenId: claims.scr, ownerId: claims.own } };
}

const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));

async function screensOf(owner: { userId: string }) {
  const res = await call(svc, owner, 'GET', '/api/screens');
  expect(res.status).toBe(200);
  return ScreenList.parse(res.body);
}

async function lastEvent(subject: string, match: (data: Record<string, unknown>) => boolean) {
  const { jsm } = svc.server.context.nats;
  for (let attempt = 0; attempt < 50; attempt++) {
    const info = await jsm.streams.info('SCREENS');
    for (let seq = info.state.last_seq; seq > Math.max(0, info.state.last_seq - 500); seq--) {
      const m = await jsm.streams.getMessage('SCREENS', { seq }).catch(() => undefined);
      if (!m || m.subject !== subject) continue;
      const data = m.json<{ data: Record<string, unknown> }>().data;
      if (match(data)) return data;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}

describe('pairing', () => {
  it('a display is paired by its code and receives a device token for that screen only, signed for the JWKS', async () => {
    const owner = member();
    const p = await startPairing();
    expect(p.code).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
    expect((await poll(p)).body).toEqual({ status: 'waiting' });

    const res = await call(svc, owner, 'POST', '/api/screens', { code: p.code.toLowerCase(), name: ' Lobby ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Lobby',
      timeZone: 'Asia/Tokyo',
      online: false,
      assignment: { kind: 'none' },
    });

    const polled = await poll(p);
    expect(polled.body).toEqual({ status: 'paired', screenId: res.body.id });
    const cookie = polled.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(new RegExp(`^${DEVICE_COOKIE}=[^;]+; Path=/; Max-Age=\\d+; HttpOnly; SameSite=Lax`));
    const token = cookie.slice(cookie.indexOf('=') + 1, cookie.indexOf(';'));
    const jwks = await call(svc, null, 'GET', '/.well-known/jwks.json');
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks.body));
    expect(protectedHeader.alg).toBe('EdDSA');
    expect(payload).toMatchObject({ scr: res.body.id, own: owner.userId, typ: 'device' });
    expect(await screensOf(owner)).toHaveLength(1);
  });

  it('a wrong, malformed, expired or already used code is refused and pairs nothing', async () => {
    const owner = member();
    const other = member();
    const wrong = await call(svc, owner, 'POST', '/api/screens', { code: 'ZZZZZZ', name: 'x' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('PAIRING_CODE_INVALID');
    const malformed = await call(svc, owner, 'POST', '/api/screens', { code: 'O0I1', name: 'x' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('VALIDATION');
    const zone = await call(svc, owner, 'POST', '/api/screens', { code: 'ABCDEF', name: 'x', timeZone: 'Mars/Base' });
    expect(zone.body.code).toBe('VALIDATION');

    const p = await startPairing();
    expect((await call(svc, owner, 'POST', '/api/screens', { code: p.code, name: 'first' })).status).toBe(201);
    const reused = await call(svc, other, 'POST', '/api/screens', { code: p.code, name: 'second' });
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe('PAIRING_CODE_INVALID');
    expect(await screensOf(other)).toEqual([]);

    const late = await startPairing();
    svc.clock.offsetMs = 301_000;
    try {
      const expired = await call(svc, other, 'POST', '/api/screens', { code: late.code, name: 'late' });
      expect(expired.body.code).toBe('PAIRING_CODE_INVALID');
      expect((await poll(late)).body).toEqual({ status: 'expired' });
    } finally {
      svc.clock.offsetMs = 0;
    }
    expect(await screensOf(other)).toEqual([]);
    expect(await screensOf(owner)).toHaveLength(1);
  });

  it('two members typing the same code at once: exactly one pairs it', async () => {
    const p = await startPairing();
    const members = [member(), member(), member(), member()];
    const answers = await Promise.all(
      members.map((m) => call(svc, m, 'POST', '/api/screens', { code: p.code, name: 'race' })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.body.code === 'PAIRING_CODE_INVALID')).toHaveLength(3);
    const counts = await Promise.all(members.map(async (m) => (await screensOf(m)).length));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
  });

  it('only the display that asked for the code can collect the token', async () => {
    const p = await startPairing();
    await call(svc, member(), 'POST', '/api/screens', { code: p.code, name: 'x' });
    const stolen = await poll({ pairingId: p.pairingId, pollSecret: 'a'.repeat(32) });
    expect(stolen.status).toBe(404);
    expect(stolen.headers.get('set-cookie')).toBeNull();
  });

  it('asking for codes is rate-limited per display address; member attempts per member', async () => {
    const ip = address();
    for (let i = 0; i < 4; i++) await startPairing(ip);
    const fifth = await call(svc, null, 'POST', '/api/screens/pairing', undefined, from(ip));
    expect(fifth.status).toBe(429);
    expect(fifth.body.code).toBe('RATE_LIMITED');
    await startPairing(address()); // another address is not held back

    const guesser = member();
    for (let i = 0; i < 6; i++) {
      const res = await call(svc, guesser, 'POST', '/api/screens', { code: 'ZZZZZ2', name: 'x' });
      expect(res.body.code).toBe('PAIRING_CODE_INVALID');
    }
    const p = await startPairing();
    const blocked = await call(svc, guesser, 'POST', '/api/screens', { code: p.code, name: 'x' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('RATE_LIMITED');
    expect((await poll(p)).body).toEqual({ status: 'waiting' });
  });
});

describe('the device identity', () => {
  it('reads its own screen, and is refused every member call', async () => {
    const owner = member();
    const { screen, device } = await paired(owner);
    const me = await call(svc, { device }, 'GET', '/api/screens/device/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ screenId: screen.id, name: 'Shop window', timeZone: 'Asia/Tokyo' });

    for (const [method, path, body] of [
      ['GET', '/api/screens', undefined],
      ['POST', '/api/screens', { code: 'ABCDEF', name: 'x' }],
      ['PUT', `/api/screens/${screen.id}`, { name: 'renamed' }],
      ['DELETE', `/api/screens/${screen.id}`, undefined],
      ['GET', '/api/screens/plays?from=2026-01-01&to=2026-01-02', undefined],
    ] as const) {
      const res = await call(svc, { device }, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe('DEVICE_NOT_ALLOWED');
    }
    expect((await screensOf(owner))[0]?.name).toBe('Shop window');
    // and a member is no device
    const asMember = await call(svc, owner, 'GET', '/api/screens/device/me');
    expect(asMember.status).toBe(401);
  });

  it('a device identity naming another screen is refused', async () => {
    const owner = member();
    const a = await paired(owner, 'A');
    const b = await paired(owner, 'B');
    const forged = { ...a.device, screenId: b.screen.id };
    const res = await call(svc, { device: forged }, 'POST', '/api/screens/device/heartbeat', {
      appVersion: '1',
      screenSize: { width: 1, height: 1 },
      nowPlaying: null,
    });
    expect(res.status).toBe(401);
    expect((await screensOf(owner)).find((s) => s.id === b.screen.id)?.lastSeenAt).toBeNull();
  });

  it('revocation ends the device at once and is announced for the gateway; strangers cannot revoke', async () => {
    const owner = member();
    const { screen, device } = await paired(owner);
    const stranger = await call(svc, member(), 'DELETE', `/api/screens/${screen.id}`);
    expect(stranger.status).toBe(404);
    expect(stranger.body.code).toBe('SCREEN_NOT_FOUND');
    expect((await call(svc, { device }, 'GET', '/api/screens/device/me')).status).toBe(200);

    expect((await call(svc, owner, 'DELETE', `/api/screens/${screen.id}`)).body).toEqual({ ok: true });
    expect((await call(svc, { device }, 'GET', '/api/screens/device/me')).status).toBe(401);
    expect(await screensOf(owner)).toEqual([]);
    const event = await lastEvent('screens.screen.revoked.v1', (d) => d.screenId === screen.id);
    expect(event).toMatchObject({ deviceId: device.deviceId, ownerId: owner.userId });
    expect((await call(svc, owner, 'DELETE', `/api/screens/${screen.id}`)).body.code).toBe('SCREEN_NOT_FOUND');
  });
});

describe('what a screen plays', () => {
  it('stores a valid schedule and announces it; refuses overlapping or empty day parts and keeps the old one', async () => {
    const owner = member();
    const { screen, device } = await paired(owner);
    // the playlists a schedule names are the member's (PUT /api/screens/:id checks them)
    const facts = announcer(svc);
    const [day, night, dflt] = [
      await facts.playlist(owner.userId, [], Date.now() - 60_000),
      await facts.playlist(owner.userId, [], Date.now() - 60_000),
      await facts.playlist(owner.userId, [], Date.now() - 60_000),
    ];
    await eventsHandled(svc);
    const schedule = {
      kind: 'schedule',
      schedule: {
        parts: [
          { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', playlistId: day },
          { days: [5], start: '22:00', end: '02:00', playlistId: night },
        ],
        defaultPlaylistId: dflt,
      },
    };
    const ok = await call(svc, owner, 'PUT', `/api/screens/${screen.id}`, {
      assignment: schedule,
      timeZone: 'Europe/Paris',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.assignment).toEqual(schedule);
    expect(await lastEvent('screens.screen.changed.v1', (d) => d.screenId === screen.id)).toMatchObject({
      playlistIds: [day, night, dflt],
      fileIds: [],
    });

    for (const parts of [
      [
        { days: [1], start: '09:00', end: '12:00', playlistId: 'a' },
        { days: [1], start: '11:00', end: '13:00', playlistId: 'b' },
      ],
      [{ days: [2], start: '10:00', end: '10:00', playlistId: 'a' }],
      [
        { days: [6], start: '23:00', end: '01:00', playlistId: 'a' },
        { days: [0], start: '00:00', end: '00:30', playlistId: 'b' },
      ],
    ]) {
      const bad = await call(svc, owner, 'PUT', `/api/screens/${screen.id}`, {
        assignment: { kind: 'schedule', schedule: { parts, defaultPlaylistId: null } },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('SCHEDULE_INVALID');
    }
    const badTime = await call(svc, owner, 'PUT', `/api/screens/${screen.id}`, {
      assignment: {
        kind: 'schedule',
        schedule: { parts: [{ days: [1], start: '25:00', end: '26:00', playlistId: 'a' }], defaultPlaylistId: null },
      },
    });
    expect(badTime.body.code).toBe('VALIDATION');
    // a zone the server does not know (the Screens page offers only listed ones): refused with its key, nothing changed
    const badZone = await call(svc, owner, 'PUT', `/api/screens/${screen.id}`, { timeZone: 'Mars/Base' });
    expect(badZone.status).toBe(400);
    expect(badZone.body.code).toBe('VALIDATION');
    expect(badZone.body.issues).toEqual([
      expect.objectContaining({ path: 'timeZone', key: 'validation.timeZoneInvalid' }),
    ]);
    const me = await call(svc, { device }, 'GET', '/api/screens/device/me');
    expect(me.body).toMatchObject({ assignment: schedule, timeZone: 'Europe/Paris' });
  });
});

describe('heartbeats and proof of play', () => {
  const play = (over: Record<string, unknown> = {}) => ({
    id: randomUUID(),
    fileId: 'file-1',
    page: 0,
    startedAt: new Date(Date.now() - 60_000).toISOString(),
    seconds: 10,
    ...over,
  });

  it('shows a screen online with what it plays after a heartbeat, and offline after a missed interval', async () => {
    const owner = member();
    const { screen, device } = await paired(owner);
    const beat = await call(svc, { device }, 'POST', '/api/screens/device/heartbeat', {
      appVersion: '1.2.3',
      screenSize: { width: 1920, height: 1080 },
      nowPlaying: { fileId: 'file-9', page: 3 },
    });
    expect(beat.status).toBe(200);
    const [seen] = await screensOf(owner);
    expect(seen).toMatchObject({
      id: screen.id,
      online: true,
      appVersion: '1.2.3',
      screenSize: { width: 1920, height: 1080 },
      nowPlaying: { fileId: 'file-9', page: 3 },
    });
    svc.clock.offsetMs = 40_000;
    try {
      expect((await screensOf(owner))[0]?.online).toBe(false);
    } finally {
      svc.clock.offsetMs = 0;
    }
  });

  it("keeps the owner's renames and a revocation while the display reports (no write undoes the other)", async () => {
    const owner = member();
    const { screen, device } = await paired(owner);
    const beat = () =>
      call(svc, { device }, 'POST', '/api/screens/device/heartbeat', {
        appVersion: '1.0.0',
        screenSize: { width: 1280, height: 720 },
        nowPlaying: { fileId: 'file-1', page: 0 },
      });
    for (let round = 0; round < 15; round++) {
      const [renamed] = await Promise.all([
        call(svc, owner, 'PUT', `/api/screens/${screen.id}`, { name: `name ${round}` }),
        ...Array.from({ length: 4 }, beat),
      ]);
      expect(renamed.status).toBe(200);
      expect((await screensOf(owner))[0]?.name).toBe(`name ${round}`);
    }
    const [revoked] = await Promise.all([
      call(svc, owner, 'DELETE', `/api/screens/${screen.id}`),
      ...Array.from({ length: 4 }, beat),
    ]);
    expect(revoked.body).toEqual({ ok: true });
    expect(await screensOf(owner)).toEqual([]);
    expect((await beat()).status).toBe(401);
  });

  /** Moves the service's clock to this instant (it keeps running from there). */
  const clockAt = (iso: string) => {
    svc.clock.offsetMs = Date.parse(iso) - Date.now();
  };

  it('counts each record once however often the batch is sent, per file, day and screen, also as CSV', async () => {
    const owner = member();
    const facts = announcer(svc);
    clockAt('2026-11-21T09:00:00Z');
    try {
      const fa = await facts.file(owner.userId, 2, Date.parse('2026-11-21T08:00:00Z'));
      const fb = await facts.file(owner.userId, 1, Date.parse('2026-11-21T08:00:00Z'));
      const list = await facts.playlist(owner.userId, [fa, fb], Date.parse('2026-11-21T08:30:00Z'));
      await eventsHandled(svc);
      const { screen, device } = await paired(owner, 'Counter, "front"');
      await call(svc, owner, 'PUT', `/api/screens/${screen.id}`, {
        assignment: { kind: 'playlist', playlistId: list },
      });
      // 23:30 UTC is the next day in Tokyo: the screen's day counts
      const batch = {
        plays: [
          play({ startedAt: '2026-11-21T23:30:00.000Z', fileId: fa, page: 1 }),
          play({ startedAt: '2026-11-21T23:30:10.000Z', fileId: fa, page: 2 }),
          play({ startedAt: '2026-11-21T10:00:00.000Z', fileId: fb, page: 1 }),
        ],
      };
      clockAt('2026-11-22T12:00:00Z');
      // each answer as the judge stored it (sendPlays reads what the batch's records became)
      expect(await sendPlays(svc, device, batch.plays)).toEqual({
        accepted: 3,
        duplicates: 0,
        refused: 0,
        refusedByReason: {},
      });
      expect(await sendPlays(svc, device, batch.plays)).toEqual({
        accepted: 0,
        duplicates: 3,
        refused: 0,
        refusedByReason: {},
      });
      const more = await sendPlays(svc, device, [
        batch.plays[0],
        play({ startedAt: '2026-11-22T00:00:00.000Z', fileId: fb, page: 1 }),
      ]);
      expect(more).toEqual({ accepted: 1, duplicates: 1, refused: 0, refusedByReason: {} });
      svc.clock.offsetMs = 0;
      const report = await call(svc, owner, 'GET', '/api/screens/plays?from=2026-11-21&to=2026-11-22');
      expect(report.status).toBe(200);
      const screenName = 'Counter, "front"';
      // rows of a day come in file id order
      const day22 = [
        { fileId: fa, plays: 2 },
        { fileId: fb, plays: 1 },
      ].sort((x, y) => x.fileId.localeCompare(y.fileId));
      const row = (day: string, r: { fileId: string; plays: number }) => ({
        day,
        screenId: screen.id,
        screenName,
        ...r,
        seconds: r.plays * 10,
      });
      expect(report.body).toEqual([
        row('2026-11-21', { fileId: fb, plays: 1 }),
        ...day22.map((r) => row('2026-11-22', r)),
      ]);
      const csv = await call(svc, owner, 'GET', '/api/screens/plays?from=2026-11-21&to=2026-11-22&format=csv');
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(csv.text.split('\r\n')).toEqual([
        'day,screen_id,screen_name,file_id,plays,seconds',
        `2026-11-21,${screen.id},"Counter, ""front""",${fb},1,10`,
        ...day22.map((r) => `2026-11-22,${screen.id},"Counter, ""front""",${r.fileId},${r.plays},${r.plays * 10}`),
        '',
      ]);
      // another member sees none of it
      expect((await call(svc, member(), 'GET', '/api/screens/plays?from=2026-11-21&to=2026-11-22')).body).toEqual([]);
    } finally {
      svc.clock.offsetMs = 0;
    }
  });

  it('many displays reporting at once share inserts, yet each answer counts its own new and repeated records', async () => {
    const owner = member();
    const facts = announcer(svc);
    const start = Date.now() - 4 * 60_000;
    const burst = await facts.file(owner.userId, 1, start - 60_000);
    await eventsHandled(svc);
    // paired and given the file before the records start
    svc.clock.offsetMs = -5 * 60_000;
    let displays: Array<Awaited<ReturnType<typeof paired>>> = [];
    try {
      displays = await Promise.all(Array.from({ length: 6 }, () => paired(owner)));
      for (const d of displays) {
        await call(svc, owner, 'PUT', `/api/screens/${d.screen.id}`, { assignment: { kind: 'file', fileId: burst } });
      }
    } finally {
      svc.clock.offsetMs = 0;
    }
    const at = (seconds: number) => ({
      fileId: burst,
      page: 1,
      startedAt: new Date(start + seconds * 1000).toISOString(),
    });
    const batches = displays.map(() => ({ plays: [play(at(0)), play(at(10))] }));
    // first sends, then resends of half the batches mixed with new batches, all at once
    const first = await Promise.all(displays.map(({ device }, i) => sendPlays(svc, device, batches[i]?.plays ?? [])));
    const none = { refused: 0, refusedByReason: {} };
    expect(first).toEqual(displays.map(() => ({ accepted: 2, duplicates: 0, ...none })));
    const mixed = await Promise.all(
      displays.map(({ device }, i) => sendPlays(svc, device, i % 2 === 0 ? (batches[i]?.plays ?? []) : [play(at(20))])),
    );
    expect(mixed).toEqual(
      displays.map((_, i) =>
        i % 2 === 0 ? { accepted: 0, duplicates: 2, ...none } : { accepted: 1, duplicates: 0, ...none },
      ),
    );
    const day = new Date(start).toLocaleDateString('en-CA', { timeZone: 'Asia/Tokyo' });
    const report = await call(svc, owner, 'GET', `/api/screens/plays?from=${day}&to=${day}`);
    const rows = report.body as Array<{ screenId: string; plays: number }>;
    expect(rows.map((r) => r.plays).reduce((a, b) => a + b, 0)).toBe(6 * 2 + 3);
    expect(new Set(rows.map((r) => r.screenId)).size).toBe(6);
  });

  it("a seller sees the plays of what they sold on buyers' screens, per day and file, never which screen or member", async () => {
    const seller = member();
    const buyer = member();
    const stranger = member();
    const facts = announcer(svc);
    clockAt('2026-11-20T12:00:00Z');
    let sold = '';
    try {
      sold = await facts.file(seller.userId, 3, Date.parse('2026-11-19T00:00:00Z'));
      const unsold = await facts.file(buyer.userId, 1, Date.parse('2026-11-19T00:00:00Z'));
      // marketplace announces the sale (a redelivery too: the read models record it once)
      const from = Date.parse('2026-11-20T10:00:00Z');
      const sale = createEvent(subjects.purchaseCompleted, {
        purchaseId: randomUUID(),
        buyerId: buyer.userId,
        fileId: sold,
        sellerId: seller.userId,
        price: 3000,
        sellerNet: 2000,
        purchasedAt: new Date(from).toISOString(),
        expiresAt: new Date(from + 30 * 86_400_000).toISOString(),
      });
      const js = svc.server.context.nats.js;
      await js.publish(subjects.purchaseCompleted, JSON.stringify(sale));
      await js.publish(subjects.purchaseCompleted, JSON.stringify({ ...sale, id: randomUUID() }));
      const buyerList = await facts.playlist(buyer.userId, [sold, unsold], Date.parse('2026-11-20T11:00:00Z'));
      await eventsHandled(svc);
      expect(await svc.server.context.data.soldFiles.filesOf(seller.userId)).toEqual([sold]);

      const buyerScreen = await paired(buyer, 'Buyer shop');
      const sellerScreen = await paired(seller, 'Seller office');
      await call(svc, buyer, 'PUT', `/api/screens/${buyerScreen.screen.id}`, {
        assignment: { kind: 'playlist', playlistId: buyerList },
      });
      await call(svc, seller, 'PUT', `/api/screens/${sellerScreen.screen.id}`, {
        assignment: { kind: 'file', fileId: sold },
      });
      clockAt('2026-11-22T12:00:00Z');
      for (const [device, fileId, startedAt] of [
        [buyerScreen.device, sold, '2026-11-21T09:00:00.000Z'],
        [buyerScreen.device, sold, '2026-11-22T09:00:00.000Z'],
        [buyerScreen.device, sold, '2026-11-22T10:00:00.000Z'],
        [buyerScreen.device, unsold, '2026-11-22T11:00:00.000Z'],
        [sellerScreen.device, sold, '2026-11-22T09:00:00.000Z'], // the seller's own screen: in their own report, not here
      ] as const) {
        expect(await sendPlays(svc, device, [play({ fileId, startedAt, page: 1 })])).toEqual({
          accepted: 1,
          duplicates: 0,
          refused: 0,
          refusedByReason: {},
        });
      }
    } finally {
      svc.clock.offsetMs = 0;
    }
    const report = await call(svc, seller, 'GET', '/api/screens/plays/sold?from=2026-11-21&to=2026-11-22');
    expect(report.status).toBe(200);
    expect(report.headers.get('cache-control')).toBe('no-store');
    expect(report.body).toEqual([
      { day: '2026-11-21', fileId: sold, plays: 1, seconds: 10 },
      { day: '2026-11-22', fileId: sold, plays: 2, seconds: 20 },
    ]);
    // the buyer sold nothing; a stranger neither; a bad range is refused
    expect((await call(svc, buyer, 'GET', '/api/screens/plays/sold?from=2026-11-21&to=2026-11-22')).body).toEqual([]);
    expect((await call(svc, stranger, 'GET', '/api/screens/plays/sold?from=2026-11-21&to=2026-11-22')).body).toEqual(
      [],
    );
    const bad = await call(svc, seller, 'GET', '/api/screens/plays/sold?from=2026-11-22&to=2026-11-21');
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION']);
    expect((await call(svc, null, 'GET', '/api/screens/plays/sold?from=2026-11-21&to=2026-11-22')).status).toBe(401);
  });

  it('refuses malformed, repeated, future-dated, too old and huge batches, storing nothing of them', async () => {
    const owner = member();
    const { device } = await paired(owner);
    const today = new Date().toISOString().slice(0, 10);
    const good = play();
    const cases: Array<[unknown, string]> = [
      [{ plays: [good, { ...good }] }, 'PLAY_BATCH_INVALID'], // the same id twice in one batch
      [{ plays: [good, play({ startedAt: new Date(Date.now() + 3_600_000).toISOString() })] }, 'PLAY_BATCH_INVALID'],
      [{ plays: [good, play({ startedAt: '2020-01-01T00:00:00.000Z' })] }, 'PLAY_BATCH_INVALID'],
      [{ plays: [good, play({ seconds: -1 })] }, 'VALIDATION'],
      [{ plays: [good, play({ id: 'not-a-uuid' })] }, 'VALIDATION'],
      [{ plays: [] }, 'VALIDATION'],
      [{ plays: Array.from({ length: 501 }, () => play()) }, 'VALIDATION'],
      ['{"plays": [', 'VALIDATION'],
    ];
    for (const [body, code] of cases) {
      const res = await call(svc, { device }, 'POST', '/api/screens/device/plays', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.code).toBe(code);
    }
    expect((await call(svc, owner, 'GET', `/api/screens/plays?from=2019-01-01&to=${today}`)).body.code).toBe(
      'VALIDATION',
    );
    const from = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await call(svc, owner, 'GET', `/api/screens/plays?from=${from}&to=${tomorrow}`)).body).toEqual([]);
    // the good record alone is judged afterwards (its screen plays nothing): the refused batches did not store it
    expect(await sendPlays(svc, device, [good])).toEqual({
      accepted: 0,
      duplicates: 0,
      refused: 1,
      refusedByReason: { 'not-assigned': 1 },
    });
  });
});
