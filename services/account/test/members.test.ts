import { randomUUID } from 'node:crypto';
import { createEvent, SESSION_COOKIE, subjects } from '@pagecast/contracts';
import { waitFor } from '@pagecast/service-kit/testing';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLegacyUser } from '../src/cli/create-legacy-user';
import { call, collectEvents, env, type Harness, login, startHarness, uniqueEmail, verifiedMember } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('account_members');
});
afterAll(async () => {
  await h?.close();
});

const password = 'correct horse battery';

/** An old external account made by the operator command, with a session printed by --session. */
async function legacyMember() {
  const email = uniqueEmail('legacy');
  const out = await createLegacyUser(
    ['--email', email.toUpperCase(), '--first-name', '太郎', '--last-name', '山田', '--session'],
    { ...env, MONGO_DB: h.server.context.dbName, LOG_LEVEL: 'silent' },
  );
  const token =
    out
      .split('\n')
      .find((l) => l.startsWith(`${SESSION_COOKIE}=`))
      ?.slice(SESSION_COOKIE.length + 1) ?? '';
  const claims = decodeJwt(token) as { sub: string; sid: string };
  return { email, identity: { userId: claims.sub, sessionId: claims.sid }, out };
}

describe('old external accounts and migration', () => {
  it('creates an external, verified account without password that cannot log in locally', async () => {
    const legacy = await legacyMember();
    expect(legacy.out).toContain(`<${legacy.email}>`);
    const me = await call(h, 'GET', '/api/auth/user', { identity: legacy.identity });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email: legacy.email,
      authProvider: 'external',
      emailVerified: true,
      migratedAt: null,
      points: 300,
      firstName: '太郎',
      lastName: '山田',
    });
    const res = await call(h, 'POST', '/api/auth/local-login', { body: { email: legacy.email, password } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('INVALID_CREDENTIALS');
    // No reset mail either: an external account has no password to reset.
    await expect(
      createLegacyUser(['--email', legacy.email, '--first-name', 'a', '--last-name', 'b'], {
        ...env,
        MONGO_DB: h.server.context.dbName,
        LOG_LEVEL: 'silent',
      }),
    ).rejects.toThrow(/exists already/);
  });

  it('migrates once, with the 100-point bonus announced once, even for two concurrent calls', async () => {
    const migrated = collectEvents(h, subjects.userMigrated);
    const legacy = await legacyMember();
    const body = { password, confirmPassword: password };
    const [a, b] = await Promise.all([
      call(h, 'POST', '/api/auth/migrate-account', { identity: legacy.identity, body }),
      call(h, 'POST', '/api/auth/migrate-account', {
        identity: legacy.identity,
        body: { password: 'another password!', confirmPassword: 'another password!' },
      }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const ok = a.status === 200 ? a : b;
    const refused = a.status === 200 ? b : a;
    expect(refused.body.code).toBe('NOT_MIGRATABLE');
    // The bonus is billing's ledger entry now: account's copy of the balance moves only with billing's event.
    expect(ok.body).toMatchObject({ migrationBonus: 100, user: { authProvider: 'local', points: 300 } });
    expect(ok.body.user.migratedAt).toBeTruthy();
    expect(Object.keys(ok.body).sort()).toEqual(['migrationBonus', 'user']);

    const again = await call(h, 'POST', '/api/auth/migrate-account', { identity: legacy.identity, body });
    expect(again.status).toBe(409);
    await migrated.waitFor((e) => e.data.userId === legacy.identity.userId);
    // Nothing more can be announced once the member's migration entries are all filed as sent (the outbox relay
    // publishes unsent entries only): then exactly one entry, and the one event seen is it.
    const { outbox } = h.server.context;
    const ofMember = <T extends { data: unknown }>(list: T[]) =>
      list.filter((e) => (e.data as { userId?: string }).userId === legacy.identity.userId);
    await waitFor('the migration announcement filed as sent', async () => {
      const unsent = await outbox.model.find({ subject: subjects.userMigrated }).lean();
      return ofMember(unsent).length === 0;
    });
    const announced = ofMember(await outbox.entries({ subject: subjects.userMigrated }));
    expect(announced).toHaveLength(1);
    const events = migrated.events.filter((e) => e.data.userId === legacy.identity.userId);
    expect(events.map((e) => e.id)).toEqual([announced[0]?._id]);
    expect(events[0]?.data.bonusPoints).toBe(100);
    migrated.stop();
    // Account never adds the bonus itself (a billing running beside this test may already have announced 400).
    const own = (await h.server.context.data.users.model.findById(legacy.identity.userId).lean()) as {
      points: number;
    };
    expect(own.points).toBe(300);
    // Billing credits the bonus and announces the balance; account's read model follows.
    const balance = createEvent(subjects.pointsChanged, {
      userId: legacy.identity.userId,
      balance: 400,
      entryId: randomUUID(),
      amount: 100,
      type: 'earn',
      occurredAt: new Date().toISOString(),
    });
    await h.server.context.nats.js.publish(subjects.pointsChanged, JSON.stringify(balance), { msgID: balance.id });
    const deadline = Date.now() + 10_000;
    let me = await call(h, 'GET', '/api/auth/user', { identity: legacy.identity });
    while (me.body.points !== 400 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      me = await call(h, 'GET', '/api/auth/user', { identity: legacy.identity });
    }
    expect(me.body.points).toBe(400);

    // The winner's password is the one that works.
    const winnerPassword = ok === a ? password : 'another password!';
    await login(h, legacy.email, winnerPassword);
  });

  it('refuses migration of a local account', async () => {
    const { email } = await verifiedMember(h, 'local-migrate');
    const { session } = await login(h, email, password);
    const res = await call(h, 'POST', '/api/auth/migrate-account', {
      identity: session.identity,
      body: { password, confirmPassword: password },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('NOT_MIGRATABLE');
  });

  it('refuses a password change to an external account', async () => {
    const legacy = await legacyMember();
    const res = await call(h, 'PUT', '/api/user/password', {
      identity: legacy.identity,
      body: { currentPassword: 'anything', newPassword: password, confirmPassword: password },
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('NOT_LOCAL_ACCOUNT');
  });
});

describe('profile', () => {
  it('updates names and picture, clears the picture with an empty value and refuses a non-URL', async () => {
    const updated = collectEvents(h, subjects.userUpdated);
    const { email } = await verifiedMember(h, 'profile');
    const { session } = await login(h, email, password);
    const res = await call(h, 'PUT', '/api/user/profile', {
      identity: session.identity,
      body: { firstName: ' 次郎 ', lastName: '鈴木', profileImageUrl: 'https://example.com/me.png' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      firstName: '次郎',
      lastName: '鈴木',
      profileImageUrl: 'https://example.com/me.png',
    });
    await updated.waitFor((e) => e.data.userId === session.userId && e.data.firstName === '次郎');
    updated.stop();

    const cleared = await call(h, 'PUT', '/api/user/profile', {
      identity: session.identity,
      body: { firstName: '次郎', lastName: '鈴木', profileImageUrl: '' },
    });
    expect(cleared.body.profileImageUrl).toBeNull();

    for (const bad of ['not a url', 'ftp://example.com/a.png', 'javascript:alert(1)']) {
      const r = await call(h, 'PUT', '/api/user/profile', {
        identity: session.identity,
        body: { firstName: '次郎', lastName: '鈴木', profileImageUrl: bad },
      });
      expect(r.status, bad).toBe(400);
      expect(r.body.code).toBe('VALIDATION');
      expect(r.body.issues).toContainEqual(
        expect.objectContaining({ path: 'profileImageUrl', message: '有効なURLを入力してください' }),
      );
    }
    const me = await call(h, 'GET', '/api/auth/user', { identity: session.identity });
    expect(me.body.profileImageUrl).toBeNull();
  });
});

describe('contact', () => {
  it('stores a visitor message with status new, and a member message with the member', async () => {
    const body = {
      name: '問い合わせ太郎',
      email: uniqueEmail('contact'),
      subject: '料金について',
      message: 'プランについて教えてください。',
    };
    const anonymous = await call(h, 'POST', '/api/contact', { body });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({ ok: true });
    const model = h.server.context.data.contactMessages.model;
    const stored = await model.findOne({ email: body.email }).lean();
    expect(stored).toMatchObject({ ...body, status: 'new', userId: null });

    const { email } = await verifiedMember(h, 'contact-member');
    const { session } = await login(h, email, password);
    const member = await call(h, 'POST', '/api/contact', { identity: session.identity, body: { ...body, email } });
    expect(member.status).toBe(200);
    expect(await model.findOne({ email }).lean()).toMatchObject({ status: 'new', userId: session.userId });
  });
});

describe('billing read model', { timeout: 200_000 }, () => {
  const publish = (subject: string, data: unknown, occurredAt: Date) => {
    const id = randomUUID();
    return h.nats.js.publish(
      subject,
      JSON.stringify({ id, type: subject, occurredAt: occurredAt.toISOString(), data }),
      {
        msgID: id,
      },
    );
  };
  // Events reach the service through its durable consumer, one at a time, behind every BILLING event published since
  // it started: the billing tests run in another lane on the same NATS, and under a full run that backlog has taken
  // over 30 s. The bound is for a consumer that never applies the event, not a speed target.
  const until = async (check: () => Promise<boolean>) => {
    const end = Date.now() + 90_000;
    while (!(await check())) {
      if (Date.now() > end) throw new Error('condition not reached');
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('takes points and membership from billing events, ignoring older ones that arrive late', async () => {
    const { email } = await verifiedMember(h, 'billing');
    const { session } = await login(h, email, password);
    const me = async () => (await call(h, 'GET', '/api/auth/user', { identity: session.identity })).body;
    const userId = session.userId;
    // a day ahead: a billing service of another suite on the same NATS hears this registration and announces the
    // member's bonus and plan at any moment; those events are older than these, so they cannot win over them
    const now = Date.now() + 86_400_000;
    await publish(subjects.pointsChanged, { userId, balance: 3300, entryId: 'e1' }, new Date(now));
    await until(async () => (await me()).points === 3300);
    await publish(subjects.pointsChanged, { userId, balance: 50, entryId: 'e0' }, new Date(now - 60_000));
    await publish(
      subjects.membershipChanged,
      { userId, tier: 'creator', pendingDowngradeTier: 'standard', downgradeEffectiveMonth: 203001 },
      new Date(now),
    );
    await until(async () => (await me()).membershipTier === 'creator');
    const user = await me();
    expect(user).toMatchObject({ points: 3300, pendingDowngradeTier: 'standard', downgradeEffectiveMonth: 203001 });
  });

  it("leaves the member's own record alone, so a balance event cannot undo an e-mail verification", async () => {
    // FerretDB writes an update back as the whole document it read: were billing's figures in the user's document,
    // an event applied while the member verifies (or edits the profile) could write back the old fields.
    const { email } = await verifiedMember(h, 'billing-own');
    const { session } = await login(h, email, password);
    const userId = session.userId;
    const stored = async () =>
      (await h.server.context.data.users.model.findById(userId).lean()) as { points: number; updatedAt: Date };
    const before = await stored();
    // a day ahead, as above: another suite's billing announcing this member's bonus cannot win over it
    await publish(subjects.pointsChanged, { userId, balance: 777, entryId: 'own' }, new Date(Date.now() + 86_400_000));
    await until(
      async () => (await call(h, 'GET', '/api/auth/user', { identity: session.identity })).body.points === 777,
    );
    const after = await stored();
    expect(after.points).toBe(before.points);
    expect(after.updatedAt.getTime()).toBe(before.updatedAt.getTime());
  });
});

describe('validation of every rule of spec point 5', () => {
  const cases: Array<{
    name: string;
    method: string;
    path: string;
    body: unknown;
    path_: string;
    key: string;
    session?: boolean;
  }> = [
    {
      name: 'login e-mail',
      method: 'POST',
      path: '/api/auth/local-login',
      body: { email: 'nope', password: 'x' },
      path_: 'email',
      key: 'validation.emailInvalid',
    },
    {
      name: 'login password',
      method: 'POST',
      path: '/api/auth/local-login',
      body: { email: 'a@b.co', password: '' },
      path_: 'password',
      key: 'validation.passwordRequired',
    },
    {
      name: 'register e-mail',
      method: 'POST',
      path: '/api/auth/register',
      body: { email: 'a@', firstName: 'a', lastName: 'b', password },
      path_: 'email',
      key: 'validation.emailInvalid',
    },
    {
      name: 'register first name',
      method: 'POST',
      path: '/api/auth/register',
      body: { email: 'a@b.co', firstName: ' ', lastName: 'b', password },
      path_: 'firstName',
      key: 'validation.firstNameRequired',
    },
    {
      name: 'register last name',
      method: 'POST',
      path: '/api/auth/register',
      body: { email: 'a@b.co', firstName: 'a', lastName: '', password },
      path_: 'lastName',
      key: 'validation.lastNameRequired',
    },
    {
      name: 'register password 12',
      method: 'POST',
      path: '/api/auth/register',
      body: { email: 'a@b.co', firstName: 'a', lastName: 'b', password: '12345678901' },
      path_: 'password',
      key: 'validation.passwordMin12',
    },
    {
      name: 'reset request e-mail',
      method: 'POST',
      path: '/api/auth/request-password-reset',
      body: { email: 'x' },
      path_: 'email',
      key: 'validation.emailInvalid',
    },
    {
      name: 'reset token',
      method: 'POST',
      path: '/api/auth/reset-password',
      body: { newPassword: password },
      path_: 'token',
      key: 'validation.resetTokenRequired',
    },
    {
      name: 'reset new password',
      method: 'POST',
      path: '/api/auth/reset-password',
      body: { token: 't', newPassword: 'short' },
      path_: 'newPassword',
      key: 'validation.passwordMin12',
    },
    {
      name: 'verification token',
      method: 'POST',
      path: '/api/auth/verify-email',
      body: { token: '' },
      path_: 'token',
      key: 'validation.tokenRequired',
    },
    {
      name: 'resend e-mail',
      method: 'POST',
      path: '/api/auth/resend-verification',
      body: {},
      path_: 'email',
      key: 'validation.emailInvalid',
    },
    {
      name: 'migration length',
      method: 'POST',
      path: '/api/auth/migrate-account',
      body: { password: 'eight888', confirmPassword: 'eight888' },
      path_: 'password',
      key: 'validation.passwordMin12',
      session: true,
    },
    {
      name: 'migration match',
      method: 'POST',
      path: '/api/auth/migrate-account',
      body: { password, confirmPassword: `${password}!` },
      path_: 'confirmPassword',
      key: 'validation.passwordsDoNotMatch',
      session: true,
    },
    {
      name: 'change current',
      method: 'PUT',
      path: '/api/user/password',
      body: { currentPassword: '', newPassword: password, confirmPassword: password },
      path_: 'currentPassword',
      key: 'validation.currentPasswordRequired',
      session: true,
    },
    {
      name: 'change new 12',
      method: 'PUT',
      path: '/api/user/password',
      body: { currentPassword: 'x', newPassword: 'short', confirmPassword: 'short' },
      path_: 'newPassword',
      key: 'validation.newPasswordMin12',
      session: true,
    },
    {
      name: 'change confirm 12',
      method: 'PUT',
      path: '/api/user/password',
      body: { currentPassword: 'x', newPassword: password, confirmPassword: 'short' },
      path_: 'confirmPassword',
      key: 'validation.passwordMin12',
      session: true,
    },
    {
      name: 'change match',
      method: 'PUT',
      path: '/api/user/password',
      body: { currentPassword: 'x', newPassword: password, confirmPassword: `${password}?` },
      path_: 'confirmPassword',
      key: 'validation.newPasswordsDoNotMatch',
      session: true,
    },
    {
      name: 'profile first name',
      method: 'PUT',
      path: '/api/user/profile',
      body: { firstName: '', lastName: 'b' },
      path_: 'firstName',
      key: 'validation.firstNameRequired',
      session: true,
    },
    {
      name: 'profile last name',
      method: 'PUT',
      path: '/api/user/profile',
      body: { firstName: 'a', lastName: '  ' },
      path_: 'lastName',
      key: 'validation.lastNameRequired',
      session: true,
    },
    {
      name: 'contact name',
      method: 'POST',
      path: '/api/contact',
      body: { name: '', email: 'a@b.co', subject: 's', message: '0123456789' },
      path_: 'name',
      key: 'validation.contactNameRequired',
    },
    {
      name: 'contact e-mail',
      method: 'POST',
      path: '/api/contact',
      body: { name: 'n', email: 'ab.co', subject: 's', message: '0123456789' },
      path_: 'email',
      key: 'validation.emailInvalid',
    },
    {
      name: 'contact subject',
      method: 'POST',
      path: '/api/contact',
      body: { name: 'n', email: 'a@b.co', subject: '', message: '0123456789' },
      path_: 'subject',
      key: 'validation.subjectRequired',
    },
    {
      name: 'contact message 10',
      method: 'POST',
      path: '/api/contact',
      body: { name: 'n', email: 'a@b.co', subject: 's', message: '123456789' },
      path_: 'message',
      key: 'validation.messageMin10',
    },
  ];

  let identity: { userId: string; sessionId: string };
  beforeAll(async () => {
    const legacy = await legacyMember(); // external: migration rules apply to it; the others parse before any check
    identity = legacy.identity;
  });

  it.each(cases)('$name → 400 VALIDATION with the issue', async (c) => {
    const res = await call(h, c.method, c.path, { body: c.body, identity: c.session ? identity : undefined });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION');
    const issue = res.body.issues.find((i: { path: string }) => i.path === c.path_);
    expect(issue, JSON.stringify(res.body.issues)).toMatchObject({ key: c.key });
    expect(issue.message).not.toBe(c.key); // the Japanese text of the key
  });

  it('answers a body that is not JSON with 400', async () => {
    const res = await fetch(`${h.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(res.status).toBe(400);
  });
});
