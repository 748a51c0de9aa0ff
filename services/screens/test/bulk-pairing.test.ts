// Bulk pairing against the real service (FerretDB, NATS): an operator claims many displays' codes in one
// call, with the rules of one pairing: a code claims at most one screen, wrong and used codes pair nothing, and every
// code counts against the member's attempt limit.
import { randomUUID } from 'node:crypto';
import { BulkPairingResult, DeviceClaims, PairingStarted } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { call, from, member, useService } from './helpers';

const svc = useService({ PAIRING_RATE_MAX: '1000', PAIR_ATTEMPT_RATE_MAX: '12' });

async function display() {
  const res = await call(svc, null, 'POST', '/api/screens/pairing', undefined, from('10.40.0.1'));
  expect(res.status).toBe(201);
  return PairingStarted.parse(res.body);
}
const poll = (p: { pairingId: string; pollSecret: string }) =>
  call(svc, null, 'POST', `/api/screens/pairing/${p.pairingId}/poll`, { pollSecret: p.pollSecret });
// read as plain JSON: the Screen schema grows with other issues (fleet health) while these fields stay
const screensOf = async (owner: { userId: string }) =>
  (await call(svc, owner, 'GET', '/api/screens')).body as unknown as Array<{
    id: string;
    name: string;
    timeZone: string;
  }>;
const bulk = (owner: { userId: string }, screens: Array<{ code: string; name: string }>, extra = {}) =>
  call(svc, owner, 'POST', '/api/screens/bulk-pairing', { screens, ...extra });

describe('bulk pairing', () => {
  it('pairs each valid code once, refuses wrong, used and repeated codes, and each display collects its own token', async () => {
    const owner = member();
    const [a, b, c, used] = await Promise.all([display(), display(), display(), display()]);
    const first = await call(svc, member(), 'POST', '/api/screens', { code: used.code, name: 'taken' });
    expect(first.status).toBe(201);

    const res = await bulk(
      owner,
      [
        { code: a.code, name: 'Lobby 1' },
        { code: b.code.toLowerCase(), name: 'Lobby 2' },
        { code: 'ZZZZZ2', name: 'wrong' },
        { code: used.code, name: 'used' },
        { code: a.code, name: 'again' },
        { code: c.code, name: 'Lobby 3' },
      ],
      { timeZone: 'Europe/Paris' },
    );
    expect(res.status).toBe(200);
    const { results } = BulkPairingResult.parse(res.body);
    expect(results.map((r) => [r.code, r.status])).toEqual([
      [a.code, 'paired'],
      [b.code, 'paired'],
      ['ZZZZZ2', 'refused'],
      [used.code, 'refused'],
      [a.code, 'refused'],
      [c.code, 'paired'],
    ]);
    for (const r of results) if (r.status === 'refused') expect(r.error).toBe('PAIRING_CODE_INVALID');

    const mine = await screensOf(owner);
    expect(mine.map((s) => s.name).sort()).toEqual(['Lobby 1', 'Lobby 2', 'Lobby 3']);
    expect(new Set(mine.map((s) => s.timeZone))).toEqual(new Set(['Europe/Paris']));
    // each display's poll gives it the token of its own screen, and only it
    for (const [p, i] of [
      [a, 0],
      [b, 1],
      [c, 5],
    ] as const) {
      const polled = await poll(p);
      const outcome = results[i];
      if (outcome?.status !== 'paired') throw new Error('expected a pairing');
      expect(polled.body).toEqual({ status: 'paired', screenId: outcome.screenId });
      const cookie = polled.headers.get('set-cookie') ?? '';
      const token = cookie.slice(cookie.indexOf('=') + 1, cookie.indexOf(';'));
      const claims = DeviceClaims.parse(JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()));
      expect(claims).toMatchObject({ scr: outcome.screenId, own: owner.userId });
    }
    // the used code stays its first member's
    expect((await poll(used)).body).toMatchObject({ status: 'paired', screenId: first.body.id });
  });

  it('two members claiming the same codes at once: each code pairs exactly one screen', async () => {
    const displays = await Promise.all(Array.from({ length: 5 }, () => display()));
    const members = [member(), member(), member()];
    const answers = await Promise.all(
      members.map((m) =>
        bulk(
          m,
          displays.map((d, i) => ({ code: d.code, name: `race ${i}` })),
        ),
      ),
    );
    for (const a of answers) expect(a.status).toBe(200);
    const outcomes = answers.map((a) => BulkPairingResult.parse(a.body).results);
    for (let i = 0; i < displays.length; i++) {
      expect(outcomes.filter((o) => o[i]?.status === 'paired')).toHaveLength(1);
    }
    const counts = await Promise.all(members.map(async (m) => (await screensOf(m)).length));
    expect(counts.reduce((x, y) => x + y, 0)).toBe(displays.length);
  });

  it('counts every code as an attempt: a call that would pass the limit is refused whole and pairs nothing', async () => {
    const owner = member();
    const displays = await Promise.all(Array.from({ length: 13 }, () => display()));
    const tooMany = await bulk(
      owner,
      displays.map((d, i) => ({ code: d.code, name: `screen ${i}` })),
    );
    expect(tooMany.status).toBe(429);
    expect(tooMany.body.code).toBe('RATE_LIMITED');
    expect(await screensOf(owner)).toEqual([]);
    for (const d of displays) expect((await poll(d)).body).toEqual({ status: 'waiting' });

    // another member is not held back, and within the limit a call passes
    const other = member();
    const ok = await bulk(
      other,
      displays.slice(0, 12).map((d, i) => ({ code: d.code, name: `screen ${i}` })),
    );
    expect(ok.status).toBe(200);
    expect(BulkPairingResult.parse(ok.body).results.every((r) => r.status === 'paired')).toBe(true);
    // its limit is spent now: one more code, even a right one, is refused
    const more = await call(svc, other, 'POST', '/api/screens', { code: displays[12]?.code, name: 'x' });
    expect(more.status).toBe(429);
  });

  it('refuses an empty or oversized list, and a device or anonymous caller', async () => {
    const owner = member();
    expect((await bulk(owner, [])).body.code).toBe('VALIDATION');
    const many = Array.from({ length: 101 }, (_, i) => ({ code: 'ZZZZZ2', name: `s${i}` }));
    expect((await bulk(owner, many)).body.code).toBe('VALIDATION');
    const anonymous = await call(svc, null, 'POST', '/api/screens/bulk-pairing', { screens: [] });
    expect(anonymous.status).toBe(401);
    const device = await call(
      svc,
      { device: { deviceId: randomUUID(), screenId: randomUUID(), ownerId: owner.userId } },
      'POST',
      '/api/screens/bulk-pairing',
      { screens: [{ code: 'ZZZZZ2', name: 'x' }] },
    );
    expect(device.status).toBe(403);
    expect(device.body.code).toBe('DEVICE_NOT_ALLOWED');
  });
});
