// Sign-in throttling that a stranger cannot turn against the owner: strangers' guesses fill the account's
// limit only for browsers the account does not know; a browser that signed in before (the known-browser cookie)
// still signs in, a password reset and a successful sign-in lift the throttle, and one address guessing one account
// waits longer after each failure. Against the real service, FerretDB and maildev.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimitRepository } from '../src/data';
import { KNOWN_BROWSER_COOKIE, LOGIN_DELAY_FIRST_MS, loginKeys } from '../src/domain';
import type { AccountDeps } from '../src/use-cases/deps';
import { login as loginUseCase } from '../src/use-cases/login';
import {
  type Call,
  call,
  from,
  type Harness,
  startHarness,
  tokenFromMail,
  uniqueEmail,
  verifiedMember,
  waitForMail,
} from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('account_sign_in_throttle');
});
afterAll(async () => {
  await h?.close();
});

// Every address a test uses is its own: 10.<n>.<n>.<n>, counted up.
let lastAddress = 0;
const newAddress = () => {
  lastAddress += 1;
  return `10.${(lastAddress >> 16) & 255}.${(lastAddress >> 8) & 255}.${lastAddress & 255}`;
};

/** The known-browser cookie's value an answer sets, or undefined. */
const knownBrowserFrom = (res: Call) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${KNOWN_BROWSER_COOKIE}=`))
    ?.slice(KNOWN_BROWSER_COOKIE.length + 1)
    .split(';')[0];

const attempt = (email: string, password: string, opts: { from?: string; browser?: string } = {}) =>
  call(h, 'POST', '/api/auth/local-login', {
    body: { email, password },
    headers: {
      ...from(opts.from ?? newAddress()),
      ...(opts.browser ? { cookie: `other=1; ${KNOWN_BROWSER_COOKIE}=${opts.browser}` } : {}),
    },
  });

/** A stranger's wrong passwords, each from an address of its own, until the account refuses them (429). */
async function fillAccountLimit(email: string): Promise<number> {
  for (let wrong = 0; ; wrong++) {
    const res = await attempt(email, `stranger guess ${wrong}`);
    if (res.status === 429) return wrong;
    expect(res.status).toBe(401);
    if (wrong > 20) throw new Error('the account never refused');
  }
}

/** Signs in from a new address (and this browser, if given); the known-browser cookie the answer sets. */
async function signIn(email: string, password: string, browser?: string): Promise<string> {
  const res = await attempt(email, password, { browser });
  expect(res.status).toBe(200);
  const cookie = knownBrowserFrom(res);
  if (!cookie) throw new Error('no known-browser cookie');
  return cookie;
}

async function resetPassword(email: string, newPassword: string, address: string, mailsBefore: number) {
  expect((await call(h, 'POST', '/api/auth/request-password-reset', { body: { email } })).status).toBe(200);
  const token = tokenFromMail(await waitForMail(email, mailsBefore + 1));
  const res = await call(h, 'POST', '/api/auth/reset-password', {
    body: { token, newPassword },
    headers: from(address),
  });
  expect(res.status).toBe(200);
  return res;
}

describe("strangers' guesses and the owner", () => {
  it('lets the owner in from a browser that signed in before, whatever its address, while strangers are refused', async () => {
    const { email, password } = await verifiedMember(h, 'owner-known');
    const browser = await signIn(email, password);
    expect(await fillAccountLimit(email)).toBe(5);
    // The stranger, even with the right password, from a new address and no cookie: refused.
    const stranger = await attempt(email, password);
    expect(stranger.status).toBe(429);
    expect(stranger.body.code).toBe('RATE_LIMITED');
    // The owner's browser, from an address never seen: in.
    const owner = await attempt(email, password, { browser });
    expect(owner.status).toBe(200);
    expect(owner.headers.getSetCookie().some((c) => c.startsWith('pc_session='))).toBe(true);
  });

  it('sets the cookie HttpOnly, SameSite=Strict, for the auth calls only, for a year', async () => {
    const { email, password } = await verifiedMember(h, 'cookie-shape');
    const res = await attempt(email, password);
    const set = res.headers.getSetCookie().find((c) => c.startsWith(`${KNOWN_BROWSER_COOKIE}=`)) ?? '';
    expect(set.split('; ').slice(1).sort()).toEqual(
      ['HttpOnly', 'Max-Age=31536000', 'Path=/api/auth', 'SameSite=Strict'].sort(),
    );
  });

  it('refuses the owner on a new browser like a stranger, with retryAfterSeconds; a reset from it lets it in', async () => {
    const { email, password } = await verifiedMember(h, 'owner-new');
    await fillAccountLimit(email);
    const from = newAddress();
    const refused = await attempt(email, password, { from });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    const retryAfter = refused.body.details.retryAfterSeconds;
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(Number(refused.headers.get('retry-after'))).toBe(retryAfter);

    // The reset (mail 1 was the verification) makes this browser known to the account.
    const newPassword = 'a new passphrase after the attack';
    const reset = await resetPassword(email, newPassword, from, 1);
    const browser = knownBrowserFrom(reset);
    expect(browser).toBeTruthy();
    // The strangers fill the limit again; this browser still gets in.
    expect(await fillAccountLimit(email)).toBe(5);
    expect((await attempt(email, newPassword)).status).toBe(429);
    expect((await attempt(email, newPassword, { from, browser })).status).toBe(200);
  });
});

describe('what lifts the throttle', () => {
  it('a password reset: a new browser signs in at once', async () => {
    const { email, password } = await verifiedMember(h, 'lift-reset');
    await fillAccountLimit(email);
    expect((await attempt(email, password)).status).toBe(429);
    const newPassword = 'the passphrase after the reset';
    await resetPassword(email, newPassword, newAddress(), 1);
    // No cookie, an address never seen: the account's failures no longer count.
    expect((await attempt(email, newPassword)).status).toBe(200);
  });

  it("a successful sign-in: the account's and its address's failures no longer count", async () => {
    const { email, password } = await verifiedMember(h, 'lift-sign-in');
    for (let i = 0; i < 2; i++) expect((await attempt(email, `stranger ${i}`)).status).toBe(401);
    const home = newAddress();
    for (let i = 0; i < 2; i++) expect((await attempt(email, `typo ${i}`, { from: home })).status).toBe(401);
    // 4 failures on the account, 2 on the pair: under both limits.
    expect((await attempt(email, password, { from: home })).status).toBe(200);
    // The pair has its three free failures again (without the lift, the second would wait) ...
    const again = [];
    for (let i = 0; i < 3; i++) again.push((await attempt(email, `typo again ${i}`, { from: home })).status);
    expect(again).toEqual([401, 401, 401]);
    // ... and the account holds those three of its five (without the lift, it would have refused them).
    expect(await fillAccountLimit(email)).toBe(2);
  });

  it("a successful sign-in from the known browser lifts that browser's own delay", async () => {
    const { email, password } = await verifiedMember(h, 'lift-browser');
    const browser = await signIn(email, password);
    for (let i = 0; i < 2; i++) expect((await attempt(email, `typo ${i}`, { browser })).status).toBe(401);
    expect((await attempt(email, password, { browser })).status).toBe(200);
    // Three free failures again (without the lift the second would be the fourth and wait).
    const typos = [];
    for (let i = 0; i < 4; i++) typos.push((await attempt(email, `typo again ${i}`, { browser })).status);
    expect(typos).toEqual([401, 401, 401, 429]);
  });
});

describe('how guesses are slowed', () => {
  it('one address on one account: three failures, then a wait that the answer names', async () => {
    const { email, password } = await verifiedMember(h, 'one-address');
    const from = newAddress();
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await attempt(email, `guess ${i}`, { from })).status);
    expect(answers).toEqual([401, 401, 401]);
    const slowed = await attempt(email, password, { from });
    expect(slowed.status).toBe(429);
    expect(slowed.body.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(slowed.body.details.retryAfterSeconds).toBeLessThanOrEqual(LOGIN_DELAY_FIRST_MS / 1000);
    // Only that pair waits: the owner from elsewhere is not slowed (the account holds 3 of its 5).
    expect((await attempt(email, password)).status).toBe(200);
  });

  it('waits longer after each failure of the pair, counted from the newest (a replica reading stored failures)', async () => {
    const ctx = h.server.context;
    const { conn } = ctx;
    /** A login through another replica (its own rate-limit copy, read at its first attempt) after `ages` failures. */
    const afterFailures = async (agesMs: number[]) => {
      const { email, password } = { email: uniqueEmail('pair-delay'), password: 'whatever it is' };
      const ip = newAddress();
      const now = Date.now();
      const docs = agesMs.map((age) => ({
        _id: randomUUID(),
        keys: [loginKeys.pair(email, ip)],
        at: new Date(now - age),
        expire: new Date(now - age + 15 * 60_000),
      }));
      if (docs.length > 0) await conn.collection('rate_limit_attempts').insertMany(docs as never[]);
      const deps: AccountDeps = {
        publicUrl: ctx.config.PUBLIC_URL,
        logger: ctx.logger,
        data: { ...ctx.data, rateLimits: createRateLimitRepository(conn) },
        outbox: ctx.outbox,
        mailer: ctx.mailer,
        memberships: ctx.memberships,
        settings: ctx.settings,
        settingsKeeper: ctx.settingsKeeper,
        tokens: ctx.tokens,
        background: ctx.background,
        knownBrowserKey: ctx.knownBrowserKey,
        clock: ctx.clock,
      };
      try {
        await loginUseCase(deps, { email, password }, { userAgent: null, ip });
        return 'checked';
      } catch (err) {
        const e = err as { code?: string; details?: { retryAfterSeconds?: number } };
        return e.code === 'RATE_LIMITED' ? (e.details?.retryAfterSeconds ?? -1) : e.code;
      }
    };
    const minutes = (m: number) => m * 60_000;
    // Three failures cost nothing; the fourth attempt waits 15 s after the newest, the fifth 30 s, the sixth 60 s
    // (the newest failure was a second before the attempt began, and the answer is what is left).
    const waits = [
      await afterFailures([minutes(3), minutes(2), 1000]),
      await afterFailures([minutes(4), minutes(3), minutes(2), 1000]),
      await afterFailures([minutes(5), minutes(4), minutes(3), minutes(2), 1000]),
    ];
    const within = (x: unknown, low: number, high: number) => typeof x === 'number' && x > low && x <= high;
    expect({ waits, ok: [within(waits[0], 10, 14), within(waits[1], 25, 29), within(waits[2], 55, 59)] }).toEqual({
      waits,
      ok: [true, true, true],
    });
    // Counted from the newest failure: once that long has passed, the attempt is checked.
    expect(await afterFailures([minutes(5), minutes(4), minutes(3), 31_000])).toBe('INVALID_CREDENTIALS');
    expect(await afterFailures([minutes(14), minutes(13), minutes(12), minutes(11), minutes(10)])).toBe(
      'INVALID_CREDENTIALS',
    );
    expect(await afterFailures([minutes(2), minutes(1)])).toBe('INVALID_CREDENTIALS');
    // Failures older than the window are not counted.
    expect(await afterFailures([minutes(20), minutes(19), minutes(18), 1000])).toBe('INVALID_CREDENTIALS');
  });

  it('many addresses on one account: five failures in the window, then 429 for every browser the account does not know', async () => {
    const { email, password } = await verifiedMember(h, 'many-addresses');
    const browser = await signIn(email, password);
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push((await attempt(email, `spray ${i}`)).status);
    expect(answers).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // Refusals are not stored: the account holds five failures.
    const stored = await h.server.context.data.rateLimits.model.countDocuments({ keys: loginKeys.account(email) });
    expect(stored).toBe(5);
    expect((await attempt(email, password)).status).toBe(429);
    // Its known browser is not bound by it.
    expect((await attempt(email, password, { browser })).status).toBe(200);
  });
});

describe('known-browser cookies that do not count', () => {
  it("neither a forged entry nor another account's cookie lets a browser past the account's limit", async () => {
    const a = await verifiedMember(h, 'forged-a');
    const b = await verifiedMember(h, 'forged-b');
    const cookieA = await signIn(a.email, a.password);
    const cookieB = await signIn(b.email, b.password);
    await fillAccountLimit(a.email);

    const [idA = '', tagA = ''] = cookieA.split('.');
    // (the first character: every bit of it is the tag's)
    const flipped = `${tagA.startsWith('A') ? 'B' : 'A'}${tagA.slice(1)}`;
    const random = () => randomBytes(16).toString('base64url');
    const forgeries = {
      "B's cookie": cookieB,
      "A's id with another tag": `${idA}.${flipped}`,
      "A's id with B's tag": `${idA}.${cookieB.split('.')[1]}`,
      'a random entry': `${random()}.${random()}`,
      garbage: 'not-a-cookie',
    };
    for (const [what, browser] of Object.entries(forgeries)) {
      const res = await attempt(a.email, a.password, { browser });
      expect({ what, status: res.status }).toEqual({ what, status: 429 });
    }
    // B's cookie is B's: it still works there, and A's own works on A.
    expect((await attempt(b.email, b.password, { browser: cookieB })).status).toBe(200);
    expect((await attempt(a.email, a.password, { browser: cookieA })).status).toBe(200);
  });

  it('keeps one entry per account in one cookie: signing in to A then B leaves the browser known to both', async () => {
    const a = await verifiedMember(h, 'two-a');
    const b = await verifiedMember(h, 'two-b');
    const afterA = await signIn(a.email, a.password);
    const both = await signIn(b.email, b.password, afterA);
    expect(both.split('~')).toHaveLength(2);
    await fillAccountLimit(a.email);
    await fillAccountLimit(b.email);
    expect((await attempt(a.email, a.password, { browser: both })).status).toBe(200);
    expect((await attempt(b.email, b.password, { browser: both })).status).toBe(200);
  });

  it("a known browser's own failures wait under its key, and do not fill the account's limit", async () => {
    const { email, password } = await verifiedMember(h, 'own-key');
    const browser = await signIn(email, password);
    const typos = [];
    for (let i = 0; i < 4; i++) typos.push((await attempt(email, `typo ${i}`, { browser })).status);
    expect(typos).toEqual([401, 401, 401, 429]);
    // The account counted none of them: a new browser signs in.
    expect((await attempt(email, password)).status).toBe(200);
  });
});

describe('members and unknown addresses', () => {
  it('answer alike: the same statuses, bodies and headers, and the same throttle', async () => {
    const member = await verifiedMember(h, 'alike');
    const nobody = uniqueEmail('alike-nobody');
    const run = async (email: string) => {
      const from = newAddress();
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await attempt(email, 'a wrong password', { from }));
      return answers;
    };
    const [forMember, forNobody] = [await run(member.email), await run(nobody)];
    const shape = (a: Call) => ({
      status: a.status,
      body: a.body.details ? { ...a.body, details: Object.keys(a.body.details) } : a.body,
      headers: [...a.headers.keys()].filter((k) => k !== 'date' && k !== 'x-request-id').sort(),
    });
    expect(forNobody.map(shape)).toEqual(forMember.map(shape));
    expect(forMember.map((a) => a.status)).toEqual([401, 401, 401, 429, 429]);
    expect(forNobody.map((a) => a.headers.getSetCookie())).toEqual(forMember.map(() => []));
  });
});

describe('lifts across replicas', () => {
  const window = 60_000;
  const replica = (refreshMs: number) => createRateLimitRepository(h.server.context.conn, { refreshMs });

  it("a lift on one replica hides the keys' earlier failures there at once and on another once it reads again", async () => {
    const a = replica(60_000);
    const b = replica(100);
    const k = `login:account:${uniqueEmail('lift-replica')}`;
    for (let i = 0; i < 3; i++) await (await a.begin([k], window)).end('failed');
    // b counts a's three failures (its first attempt reads the window) ...
    const before = await b.begin([k], window);
    expect(before.counts).toEqual([4]);
    await before.end('forgotten');
    expect(await a.lift([k], window)).toBe(true);
    const onA = await a.begin([k], window);
    expect(onA.counts).toEqual([1]);
    await onA.end('failed');
    // ... and, once it has read the lift, only the failure stored after it.
    let seen = await b.begin([k], window);
    for (const until = Date.now() + 5000; seen.counts[0] !== 2 && Date.now() < until; ) {
      await seen.end('forgotten');
      await new Promise((r) => setTimeout(r, 20));
      seen = await b.begin([k], window);
    }
    expect(seen.counts).toEqual([2]);
    expect(seen.keys[0]?.failures).toHaveLength(1);
    await seen.end('forgotten');
  });

  it('stores a lift only when there is something to lift, unless asked to (a reset)', async () => {
    const a = replica(60_000);
    const k = `login:account:${uniqueEmail('lift-nothing')}`;
    await (await a.begin([k], window)).end('forgotten');
    expect(await a.lift([k], window)).toBe(false);
    expect(await a.model.countDocuments({ keys: k })).toBe(0);
    expect(await a.lift([k], window, { always: true })).toBe(true);
    expect(await a.model.countDocuments({ keys: k, kind: 'lift' })).toBe(1);
  });
});
