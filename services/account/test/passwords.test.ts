import { subjects } from '@pagecast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  collectEvents,
  from,
  type Harness,
  login,
  mailsTo,
  startHarness,
  tokenFromMail,
  uniqueEmail,
  verifiedMember,
  waitForMail,
} from './harness';
import { createRateLimitRepository } from '../src/data';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('account_passwords');
});
afterAll(async () => {
  await h?.close();
});

const password = 'correct horse battery';
const newPassword = 'a much better passphrase';

describe('password reset', () => {
  it('answers identically for known and unknown addresses and mails only the known one', async () => {
    const { email } = await verifiedMember(h, 'reset-known');
    const unknown = uniqueEmail('reset-unknown');
    const a = await call(h, 'POST', '/api/auth/request-password-reset', { body: { email } });
    const b = await call(h, 'POST', '/api/auth/request-password-reset', { body: { email: unknown } });
    expect(a.status).toBe(200);
    expect(b.status).toBe(a.status);
    expect(b.body).toEqual(a.body);
    expect([...b.headers.keys()].sort()).toEqual([...a.headers.keys()].sort());
    await waitForMail(email, 2); // verification, then reset
    await h.server.context.background.idle();
    expect(await mailsTo(unknown)).toEqual([]);
  });

  it('sets the new password with a single-use token of one hour and ends every session', async () => {
    const revoked = collectEvents(h, subjects.sessionRevoked);
    const { email } = await verifiedMember(h, 'reset');
    const one = (await login(h, email, password)).session;
    const two = (await login(h, email, password)).session;
    await call(h, 'POST', '/api/auth/request-password-reset', {
      body: { email },
      headers: { 'accept-language': 'en-GB,en;q=0.8' },
    });
    const mail = await waitForMail(email, 2);
    // in the member's language (Japanese, from registration), not the browser's
    expect(mail.subject).toBe('【Pagecast】パスワードの再設定');
    expect(mail.text).toMatch(/http:\/\/pagecast\.test:8080\/reset-password\?token=/);
    const stored = await h.server.context.data.users.model.findOne({ email }).lean();
    const minutes = ((stored?.passwordResetExpires?.getTime() ?? 0) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(59);
    expect(minutes).toBeLessThanOrEqual(60);

    const token = tokenFromMail(mail);
    const res = await call(h, 'POST', '/api/auth/reset-password', { body: { token, newPassword } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });

    const events = await revoked.waitFor((e) => e.data.userId === one.userId, 2);
    expect(events.map((e) => e.data.sessionId).sort()).toEqual([one.sessionId, two.sessionId].sort());
    revoked.stop();
    for (const s of [one, two]) {
      const r = await call(h, 'POST', '/internal/sessions/refresh', {
        body: { sid: s.sessionId },
        identity: s.identity,
      });
      expect(r.status).toBe(401);
    }
    expect((await call(h, 'POST', '/api/auth/local-login', { body: { email, password } })).status).toBe(401);
    await login(h, email, newPassword);

    const reuse = await call(h, 'POST', '/api/auth/reset-password', {
      body: { token, newPassword: 'yet another passphrase' },
    });
    expect(reuse.status).toBe(400);
    expect(reuse.body.code).toBe('TOKEN_INVALID');
  });

  it('refuses an expired reset token', async () => {
    const { email } = await verifiedMember(h, 'reset-expired');
    await call(h, 'POST', '/api/auth/request-password-reset', { body: { email } });
    const token = tokenFromMail(await waitForMail(email, 2));
    await h.server.context.data.users.model.updateOne(
      { email },
      { $set: { passwordResetExpires: new Date(Date.now() - 1000) } },
    );
    const res = await call(h, 'POST', '/api/auth/reset-password', { body: { token, newPassword } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('TOKEN_INVALID');
    await login(h, email, password);
  });
});

describe('password change', () => {
  it('checks the current password, keeps this session and revokes the others', async () => {
    const { email } = await verifiedMember(h, 'change');
    const current = (await login(h, email, password)).session;
    const other = (await login(h, email, password)).session;
    const revoked = collectEvents(h, subjects.sessionRevoked);

    const wrong = await call(h, 'PUT', '/api/user/password', {
      identity: current.identity,
      body: { currentPassword: 'not my password', newPassword, confirmPassword: newPassword },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('WRONG_CURRENT_PASSWORD');

    const res = await call(h, 'PUT', '/api/user/password', {
      identity: current.identity,
      body: { currentPassword: password, newPassword, confirmPassword: newPassword },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });

    const [event] = await revoked.waitFor((e) => e.data.userId === current.userId);
    expect(event?.data.sessionId).toBe(other.sessionId);
    await new Promise((r) => setTimeout(r, 300));
    expect(revoked.events.filter((e) => e.data.sessionId === current.sessionId)).toEqual([]);
    revoked.stop();

    const refreshOther = await call(h, 'POST', '/internal/sessions/refresh', {
      body: { sid: other.sessionId },
      identity: other.identity,
    });
    expect(refreshOther.status).toBe(401);
    expect((await call(h, 'GET', '/api/auth/user', { identity: other.identity })).status).toBe(401);
    const refreshCurrent = await call(h, 'POST', '/internal/sessions/refresh', {
      body: { sid: current.sessionId },
      identity: current.identity,
    });
    expect(refreshCurrent.status).toBe(200);
    expect((await call(h, 'GET', '/api/auth/user', { identity: current.identity })).status).toBe(200);

    expect((await call(h, 'POST', '/api/auth/local-login', { body: { email, password } })).status).toBe(401);
    await login(h, email, newPassword);
  });
});

describe('login rate limits', () => {
  it('refuses a sixth failure on one account within the window with 429 and Retry-After, even with the right password', async () => {
    const { email } = await verifiedMember(h, 'limit-account');
    for (let i = 0; i < 5; i++) {
      const res = await call(h, 'POST', '/api/auth/local-login', {
        body: { email, password: `wrong password ${i}` },
        headers: from(`198.51.100.${i + 1}`),
      });
      expect(res.status).toBe(401);
    }
    const limited = await call(h, 'POST', '/api/auth/local-login', {
      body: { email, password },
      headers: from('198.51.100.99'),
    });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    // Another account is not affected.
    const other = await verifiedMember(h, 'limit-other');
    await login(h, other.email, other.password, from('198.51.100.99'));
  });

  it('refuses logins from an address after twenty failures, whatever the account, and not from other addresses', async () => {
    const member = await verifiedMember(h, 'limit-address');
    const address = from('203.0.113.7');
    const attempts = Array.from({ length: 20 }, (_, i) =>
      call(h, 'POST', '/api/auth/local-login', {
        body: { email: uniqueEmail(`guess${i}`), password: 'guessing' },
        headers: address,
      }),
    );
    const answers = await Promise.all(attempts);
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(401));
    const limited = await call(h, 'POST', '/api/auth/local-login', {
      body: { email: member.email, password: member.password },
      headers: address,
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    await login(h, member.email, member.password, from('203.0.113.8'));
  });

  it('counts concurrent failures atomically: of ten parallel guesses on one account at most five are checked', async () => {
    const { email, password: right } = await verifiedMember(h, 'limit-parallel');
    const guess = (i: number) =>
      call(h, 'POST', '/api/auth/local-login', {
        body: { email, password: `parallel guess ${i}` },
        headers: from(`192.0.2.${i + 1}`),
      });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => guess(i)));
    const checked = answers.filter((a) => a.status === 401).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(answers.filter((a) => a.status === 429).length).toBe(10 - checked);
    // Refused attempts do not count: the account takes exactly 5 - checked more failures, then locks.
    for (let i = checked; i < 5; i++) expect((await guess(100 + i)).status).toBe(401);
    expect((await guess(200)).status).toBe(429);
    const locked = await call(h, 'POST', '/api/auth/local-login', { body: { email, password: right } });
    expect(locked.status).toBe(429);
  });
});

describe('login lookup', () => {
  it('checks the member who holds the address now, not the one it was last found for', async () => {
    const a = await verifiedMember(h, 'lookup-a', 'first member password');
    const b = await verifiedMember(h, 'lookup-b', 'second member password');
    await login(h, a.email, a.password); // the address is now known to point at member A
    // The addresses change hands behind this replica's back (another replica, an operator's fix in the database).
    const users = h.server.context.conn.collection('users');
    const parked = uniqueEmail('lookup-parked');
    await users.updateOne({ email: a.email }, { $set: { email: parked } });
    await users.updateOne({ email: b.email }, { $set: { email: a.email } });

    const withA = await call(h, 'POST', '/api/auth/local-login', { body: { email: a.email, password: a.password } });
    expect(withA.status).toBe(401);
    const memberB = await users.findOne({ email: a.email });
    const { session } = await login(h, a.email, b.password);
    expect(session.userId).toBe(memberB?._id);
    // A login never looks an address up without its hint: the parked one gets it from the sweeper's repair (every
    // member on a replica's first pass after its start).
    expect(
      (await call(h, 'POST', '/api/auth/local-login', { body: { email: parked, password: a.password } })).status,
    ).toBe(401);
    expect(await h.server.context.data.users.repairEmailHints()).toBeGreaterThanOrEqual(1);
    expect((await login(h, parked, a.password)).res.status).toBe(200);
  });
});

describe('login failures across replicas', () => {
  const window = 60_000;
  const key = () => `login:account:${uniqueEmail('replica')}`;
  // Two repositories on one database are two replicas; a third made later is a restart.
  const replica = (refreshMs: number) => createRateLimitRepository(h.server.context.conn, { refreshMs });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('counts the failures stored by another replica once its copy is older than the refresh interval', async () => {
    const a = replica(60_000);
    // b's copy is due after 1 s and stale (read before answering) after 3 s: the sleep below lands in between even
    // when a loaded machine wakes it late (with 200 ms, a 400 ms late wake-up made the copy stale, seen once on a loaded machine).
    const b = replica(1000);
    const k = key();
    await (await b.begin([k], window)).end('forgotten'); // b has read the window once, empty
    for (let i = 0; i < 3; i++) await (await a.begin([k], window)).end('failed');
    await sleep(1050);
    // Due: this attempt goes on with b's copy and has it read again behind it (waiting held every login meanwhile).
    const due = await b.begin([k], window);
    expect(due.counts).toEqual([1]);
    await due.end('forgotten');
    let seen = await b.begin([k], window);
    for (const until = Date.now() + 5000; seen.counts[0] !== 4 && Date.now() < until; ) {
      await seen.end('forgotten');
      await sleep(20);
      seen = await b.begin([k], window);
    }
    expect(seen.counts).toEqual([3 + 1]); // a's three failures, this one
    expect(seen.retryAfterSeconds(0)).toBeGreaterThan(55);
  });

  it('waits for the read when its copy is over three intervals old (the reads before failed)', async () => {
    const a = replica(60_000);
    const b = replica(100);
    const k = key();
    await (await b.begin([k], window)).end('forgotten');
    for (let i = 0; i < 2; i++) await (await a.begin([k], window)).end('failed');
    await sleep(320);
    expect((await b.begin([k], window)).counts).toEqual([2 + 1]);
  });

  it('a replica that starts reads the window before its first answer; successes and refusals store nothing', async () => {
    const a = replica(60_000);
    const k = key();
    await (await a.begin([k], window)).end('failed');
    await (await a.begin([k], window)).end('forgotten');
    const fresh = replica(60_000);
    const first = await fresh.begin([k], window);
    expect(first.counts).toEqual([2]);
    await first.end('forgotten');
    expect(await a.model.countDocuments({ keys: k })).toBe(1);
  });

  it('counts attempts still being checked on this replica, and forgets them when they end', async () => {
    const a = replica(60_000);
    const k = key();
    const running = await Promise.all(Array.from({ length: 4 }, () => a.begin([k], window)));
    expect(running.map((r) => r.counts[0]).sort()).toEqual([1, 2, 3, 4]);
    await Promise.all(running.map((r) => r.end('forgotten')));
    expect((await a.begin([k], window)).counts).toEqual([1]);
  });
});
