import { CurrentUser, SESSION_TOKEN_TTL_SECONDS, subjects } from '@pagecast/contracts';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/domain';
import {
  call,
  collectEvents,
  type Harness,
  login,
  sessionFrom,
  mailsTo,
  PUBLIC_URL,
  startHarness,
  tokenFromMail,
  uniqueEmail,
  verifiedMember,
  waitForMail,
} from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('account_journeys');
});
afterAll(async () => {
  await h?.close();
});

const password = 'correct horse battery';

describe('register, verify, log in', () => {
  it('sends the verification mail in the member language, verifies with its token and logs in once as first login', async () => {
    const registered = collectEvents(h, subjects.userRegistered);
    const email = uniqueEmail('Journey');
    const reg = await call(h, 'POST', '/api/auth/register', {
      body: { email: `  ${email.toUpperCase()} `, firstName: 'Marie', lastName: 'Curie', password, locale: 'fr' },
    });
    expect(reg.status).toBe(200);
    // a code and fields, no sentence: the page words it in its own language
    expect(reg.body).toEqual({ email: email.toLowerCase(), requiresVerification: true });

    const mail = await waitForMail(email);
    expect(mail.subject).toBe('[Pagecast] Confirmez votre adresse e-mail');
    expect(mail.text).toContain('Bonjour Marie');
    expect(mail.text).toContain(`${PUBLIC_URL}/verify-email?token=`);
    expect(mail.text).toContain(`email=${encodeURIComponent(email.toLowerCase())}`);
    expect(mail.html).toContain('<a href=');

    const [event] = await registered.waitFor((e) => e.data.email === email.toLowerCase());
    expect(event?.data).toMatchObject({ points: 300, membershipTier: 'trial', locale: 'fr' });
    registered.stop();

    // Not yet verified: 403 with what the client needs to go to /verify-email.
    const early = await call(h, 'POST', '/api/auth/local-login', { body: { email, password } });
    expect(early.status).toBe(403);
    expect(early.body).toMatchObject({
      code: 'EMAIL_NOT_VERIFIED',
      requiresVerification: true,
      email: email.toLowerCase(),
    });
    expect(early.body.message).toBeTruthy();
    expect(early.headers.getSetCookie()).toEqual([]);

    const token = tokenFromMail(mail);
    const verified = await call(h, 'POST', '/api/auth/verify-email', { body: { token } });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ email: email.toLowerCase() });

    const first = await call(h, 'POST', '/api/auth/local-login', { body: { email, password } });
    expect(first.status).toBe(200);
    expect(first.body.isFirstLogin).toBe(true);
    // The answer is what the spec's client reads; the member comes from GET /api/auth/user, billing's figures too.
    expect(Object.keys(first.body).sort()).toEqual(['isFirstLogin']);
    const firstSession = sessionFrom(first);
    const me = await call(h, 'GET', '/api/auth/user', { identity: firstSession.identity });
    // points and plan are billing's figures, overlaid from its events (members.test.ts): the billing instances of
    // other test files read every registration on the shared stream and may move their clocks past a trial's end, so
    // they are not this journey's to assert (its registration event carries them, above)
    expect(CurrentUser.parse(me.body)).toMatchObject({
      email: email.toLowerCase(),
      firstName: 'Marie',
      authProvider: 'local',
      emailVerified: true,
      hasSeenWelcome: false,
    });
    const second = await call(h, 'POST', '/api/auth/local-login', { body: { email, password } });
    expect(second.status).toBe(200);
    expect(second.body.isFirstLogin).toBe(false);
  });

  it('sets an HttpOnly Lax cookie holding an EdDSA JWT that verifies against the JWKS', async () => {
    const { email } = await verifiedMember(h, 'cookie');
    const { session } = await login(h, email, password);
    expect(session.setCookie).toMatch(/; Path=\//);
    expect(session.setCookie).toMatch(/; HttpOnly/);
    expect(session.setCookie).toMatch(/; SameSite=Lax/);
    expect(session.setCookie).toMatch(/; Max-Age=2592000/);
    expect(session.setCookie).not.toMatch(/Secure/); // PUBLIC_URL is http here

    const jwks = await call(h, 'GET', '/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(jwks.body.keys[0].d).toBeUndefined();
    const { payload, protectedHeader } = await jwtVerify(session.token, createLocalJWKSet(jwks.body), {
      algorithms: ['EdDSA'],
    });
    expect(protectedHeader.kid).toBe(jwks.body.keys[0].kid);
    const me = await call(h, 'GET', '/api/auth/user', { identity: session.identity });
    expect(payload.sub).toBe(me.body.id);
    expect(typeof payload.sid).toBe('string');
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(SESSION_TOKEN_TTL_SECONDS);

    const doc = await h.server.context.data.sessions.findActive(session.sessionId);
    expect(doc?.sess.userId).toBe(me.body.id);
    const lifetimeDays = ((doc?.expire.getTime() ?? 0) - (doc?.sess.createdAt.getTime() ?? 0)) / 86_400_000;
    expect(lifetimeDays).toBe(30);
  });

  it('answers the current user to its session and 401 Unauthorized to anonymous or forged callers', async () => {
    const { email } = await verifiedMember(h, 'me');
    const { session } = await login(h, email, password);
    const me = await call(h, 'GET', '/api/auth/user', { identity: session.identity });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);

    const anonymous = await call(h, 'GET', '/api/auth/user');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized' });

    const forged = await call(h, 'GET', '/api/auth/user', {
      headers: { 'x-pagecast-identity': 'eyJ1c2VySWQiOiJ4In0.AAAA' },
    });
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized' });

    // A well-signed header for a session that does not exist is refused too.
    const ghost = await call(h, 'GET', '/api/auth/user', {
      identity: { userId: session.userId, sessionId: 'no-such-session' },
    });
    expect(ghost.status).toBe(401);

    for (const [method, path, body] of [
      ['POST', '/api/auth/mark-welcome-seen', {}],
      ['POST', '/api/auth/migrate-account', { password: 'x'.repeat(12), confirmPassword: 'x'.repeat(12) }],
      ['PUT', '/api/user/profile', { firstName: 'a', lastName: 'b' }],
      [
        'PUT',
        '/api/user/password',
        { currentPassword: 'a', newPassword: 'b'.repeat(12), confirmPassword: 'b'.repeat(12) },
      ],
    ] as const) {
      const res = await call(h, method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized' });
    }
  });

  it('marks the welcome page as seen', async () => {
    const { email } = await verifiedMember(h, 'welcome');
    const { session } = await login(h, email, password);
    const res = await call(h, 'POST', '/api/auth/mark-welcome-seen', { identity: session.identity });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const me = await call(h, 'GET', '/api/auth/user', { identity: session.identity });
    expect(me.body.hasSeenWelcome).toBe(true);
  });

  it('answers a taken address (in another case) as a new one, changes nothing and mails its holder, in their language, once an hour', async () => {
    const { email } = await verifiedMember(h, 'taken');
    // the holder's language is French; the second registration comes from an English page
    const holder = await login(h, email, password);
    await call(h, 'PUT', '/api/user/profile', {
      identity: holder.session.identity,
      body: { firstName: '花子', lastName: '佐藤', locale: 'fr' },
    });
    const registered = collectEvents(h, subjects.userRegistered);
    const fresh = uniqueEmail('fresh');
    const body = { firstName: 'Eve', lastName: 'Mallory', password: 'another long password', locale: 'en' };
    const newOne = await call(h, 'POST', '/api/auth/register', { body: { ...body, email: fresh } });
    const again = await call(h, 'POST', '/api/auth/register', { body: { ...body, email: email.toUpperCase() } });
    expect(again.status).toBe(newOne.status);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ email, requiresVerification: true });
    expect(newOne.body).toEqual({ email: fresh, requiresVerification: true });

    // the holder's mail: French, their name, what to do (log in, or reset the password with the address filled in)
    const notice = await waitForMail(email, 2);
    expect(notice.subject).toBe('[Pagecast] Quelqu’un a tenté de s’inscrire avec votre adresse e-mail');
    expect(notice.text.split('\n')[0]).toMatch(/^Bonjour .*花子/);
    expect(notice.text).toContain(`Me connecter: ${PUBLIC_URL}/login`);
    expect(notice.text).toContain(
      `Réinitialiser mon mot de passe: ${PUBLIC_URL}/request-password-reset?email=${encodeURIComponent(email)}`,
    );
    expect(notice.text).not.toContain('token=');
    expect(notice.html).toContain(`href="${PUBLIC_URL}/login"`);

    // nothing changed: no event for the address, the old password still signs in, the new one does not
    await registered.waitFor((e) => e.data.email === fresh);
    await h.server.context.background.idle();
    expect(registered.events.filter((e) => e.data.email === email)).toEqual([]);
    registered.stop();
    await login(h, email, password);
    const wrong = await call(h, 'POST', '/api/auth/local-login', { body: { email, password: body.password } });
    expect(wrong.status).toBe(401);

    // tried again within the hour: the same answer, no second mail
    const third = await call(h, 'POST', '/api/auth/register', { body: { ...body, email } });
    expect(third.body).toEqual(again.body);
    await h.server.context.background.idle();
    expect(await mailsTo(email)).toHaveLength(2);
  });

  it('answers a wrong password and an unknown e-mail alike', async () => {
    const { email } = await verifiedMember(h, 'wrong');
    const wrong = await call(h, 'POST', '/api/auth/local-login', { body: { email, password: 'not the password' } });
    const unknown = await call(h, 'POST', '/api/auth/local-login', {
      body: { email: uniqueEmail('nobody'), password: 'not the password' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.code).toBe('INVALID_CREDENTIALS');
  });
});

describe('verification tokens', () => {
  it('is single-use', async () => {
    const email = uniqueEmail('reuse');
    await call(h, 'POST', '/api/auth/register', { body: { email, firstName: 'A', lastName: 'B', password } });
    const token = tokenFromMail(await waitForMail(email));
    expect((await call(h, 'POST', '/api/auth/verify-email', { body: { token } })).status).toBe(200);
    const again = await call(h, 'POST', '/api/auth/verify-email', { body: { token } });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('TOKEN_INVALID');
  });

  it('is refused once expired, and only its hash is stored', async () => {
    const email = uniqueEmail('expired');
    await call(h, 'POST', '/api/auth/register', { body: { email, firstName: 'A', lastName: 'B', password } });
    const token = tokenFromMail(await waitForMail(email));
    const users = h.server.context.data.users.model;
    const stored = await users.findOne({ email }).lean();
    expect(stored?.verificationTokenHash).toBe(hashToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    const hours = ((stored?.verificationExpires?.getTime() ?? 0) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);

    await users.updateOne({ email }, { $set: { verificationExpires: new Date(Date.now() - 1000) } });
    const res = await call(h, 'POST', '/api/auth/verify-email', { body: { token } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('TOKEN_INVALID');
    expect((await users.findOne({ email }).lean())?.emailVerified).toBe(false);
  });

  it('is replaced by a resend: the old token stops working, the new one verifies', async () => {
    const email = uniqueEmail('resend');
    await call(h, 'POST', '/api/auth/register', {
      body: { email, firstName: 'Mario', lastName: 'Rossi', password },
      headers: { 'accept-language': 'it-IT,it;q=0.9,en;q=0.5' },
    });
    const oldToken = tokenFromMail(await waitForMail(email, 1));
    const resend = await call(h, 'POST', '/api/auth/resend-verification', {
      body: { email },
      headers: { 'accept-language': 'it' },
    });
    expect(resend.status).toBe(200);
    expect(resend.body).toEqual({ ok: true });
    const mail = await waitForMail(email, 2);
    expect(mail.subject).toBe('[Pagecast] Conferma il tuo indirizzo e-mail');
    const newToken = tokenFromMail(mail);
    expect(newToken).not.toBe(oldToken);
    expect((await call(h, 'POST', '/api/auth/verify-email', { body: { token: oldToken } })).status).toBe(400);
    expect((await call(h, 'POST', '/api/auth/verify-email', { body: { token: newToken } })).status).toBe(200);
  });

  it('answers a resend for an unknown address as for a known one, and sends nothing', async () => {
    const nobody = uniqueEmail('nobody');
    const res = await call(h, 'POST', '/api/auth/resend-verification', { body: { email: nobody } });
    expect(res.status).toBe(200);
    await h.server.context.background.idle();
    expect(await mailsTo(nobody)).toEqual([]);
  });

  it('writes Japanese mails when no language is given', async () => {
    const email = uniqueEmail('ja');
    await call(h, 'POST', '/api/auth/register', { body: { email, firstName: '太郎', lastName: '山田', password } });
    const mail = await waitForMail(email);
    expect(mail.subject).toBe('【Pagecast】メールアドレスの確認');
    expect(mail.text).toContain('太郎 様');
  });
});

describe('logout', () => {
  it('revokes the session, clears the cookie and redirects to /', async () => {
    const revoked = collectEvents(h, subjects.sessionRevoked);
    const { email } = await verifiedMember(h, 'logout');
    const { session } = await login(h, email, password);
    const res = await call(h, 'GET', '/api/logout', { identity: session.identity });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/');
    const cleared = res.headers.getSetCookie().find((c) => c.startsWith('pc_session='));
    expect(cleared).toMatch(/^pc_session=; Path=\/; Max-Age=0/);
    const [event] = await revoked.waitFor((e) => e.data.sessionId === session.sessionId);
    expect(event?.data.userId).toBe(session.userId);
    revoked.stop();
    const me = await call(h, 'GET', '/api/auth/user', { identity: session.identity });
    expect(me.status).toBe(401);
    const refresh = await call(h, 'POST', '/internal/sessions/refresh', {
      body: { sid: session.sessionId },
      identity: session.identity,
    });
    expect(refresh.status).toBe(401);
  });

  it('still clears the cookie and redirects for a visitor', async () => {
    const res = await call(h, 'GET', '/api/logout');
    expect(res.status).toBe(302);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('pc_session=;'))).toBe(true);
  });

  it('sends /api/login to the login page', async () => {
    const res = await call(h, 'GET', '/api/login');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login');
  });
});

describe('session refresh for the gateway', () => {
  it('answers a new token for a live session and refuses unknown sids, other users and mismatched headers', async () => {
    const { email } = await verifiedMember(h, 'refresh');
    const { session } = await login(h, email, password);
    const ok = await call(h, 'POST', '/internal/sessions/refresh', {
      body: { sid: session.sessionId },
      identity: session.identity,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.maxAgeSeconds).toBeGreaterThan(30 * 86400 - 60);
    expect(ok.body.expiresAt).toBeGreaterThan(Date.now() / 1000 + 29 * 86400);
    const jwks = (await call(h, 'GET', '/.well-known/jwks.json')).body;
    const { payload } = await jwtVerify(ok.body.token, createLocalJWKSet(jwks));
    expect(payload).toMatchObject({ sub: session.userId, sid: session.sessionId });

    const unknown = await call(h, 'POST', '/internal/sessions/refresh', {
      body: { sid: 'no-such-sid' },
      identity: { userId: session.userId, sessionId: 'no-such-sid' },
    });
    expect(unknown.status).toBe(401);
    const mismatch = await call(h, 'POST', '/internal/sessions/refresh', {
      body: { sid: session.sessionId },
      identity: { userId: session.userId, sessionId: 'another' },
    });
    expect(mismatch.status).toBe(401);
    const otherUser = await call(h, 'POST', '/internal/sessions/refresh', {
      body: { sid: session.sessionId },
      identity: { userId: 'someone-else', sessionId: session.sessionId },
    });
    expect(otherUser.status).toBe(401);
    const noHeader = await call(h, 'POST', '/internal/sessions/refresh', { body: { sid: session.sessionId } });
    expect(noHeader.status).toBe(401);
  });

  it('refuses an expired session, which the sweeper then removes', async () => {
    const { email } = await verifiedMember(h, 'expiry');
    const { session } = await login(h, email, password);
    const sessions = h.server.context.data.sessions;
    await sessions.model.updateOne({ _id: session.sessionId }, { $set: { expire: new Date(Date.now() - 1000) } });
    const res = await call(h, 'POST', '/internal/sessions/refresh', {
      body: { sid: session.sessionId },
      identity: session.identity,
    });
    expect(res.status).toBe(401);
    expect(await sessions.sweepExpired()).toBeGreaterThanOrEqual(1);
    expect(await sessions.model.findById(session.sessionId).lean()).toBeNull();
  });

  it('signs with the key the database holds, shared by a second replica', async () => {
    const other = await startHarness('unused', { MONGO_DB: h.server.context.dbName });
    try {
      const a = (await call(h, 'GET', '/.well-known/jwks.json')).body;
      const b = (await call(other, 'GET', '/.well-known/jwks.json')).body;
      expect(b).toEqual(a);
      const { email } = await verifiedMember(h, 'replica');
      const { session } = await login(other, email, password);
      await jwtVerify(session.token, createLocalJWKSet(a));
    } finally {
      await other.server.close();
      await other.nats.nc.drain();
    }
  });
});
