import { CurrentUser } from '@pagecast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Harness, login, mailsTo, startHarness, tokenFromMail, uniqueEmail, waitForMail } from './harness';

/**
 * A member's mails are in the member's language (chosen on the page at registration, changed in the
 * settings), greeted by full name in the language's order; the browser's Accept-Language decides only for an account
 * stored without a language. Mails are read from the real mail catcher (maildev).
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness('account_mail_language');
});
afterAll(async () => {
  await h?.close();
});

const password = 'correct horse battery';
const japaneseBrowser = { 'accept-language': 'ja-JP,ja;q=0.9' };

async function registered(locale: string | undefined, headers: Record<string, string>) {
  const email = uniqueEmail('lang');
  const res = await call(h, 'POST', '/api/auth/register', {
    body: { email, firstName: 'Taro', lastName: 'Yamada', password, ...(locale ? { locale } : {}) },
    headers,
  });
  expect(res.status).toBe(200);
  return email;
}

describe('the language of a member’s mails', () => {
  it('is the page’s at registration, not the browser’s; after a switch to French in the settings, a reset is in French', async () => {
    const email = await registered('en', japaneseBrowser);
    const verification = await waitForMail(email, 1);
    expect(verification.subject).toBe('[Pagecast] Confirm your e-mail address');
    expect(verification.text.split('\n')[0]).toBe('Hello Taro Yamada,');
    expect(verification.html).toContain('<p>Hello Taro Yamada,</p>');
    expect(
      (await call(h, 'POST', '/api/auth/verify-email', { body: { token: tokenFromMail(verification) } })).status,
    ).toBe(200);

    const { session } = await login(h, email, password, japaneseBrowser);
    const me = await call(h, 'GET', '/api/auth/user', { identity: session.identity });
    expect(CurrentUser.parse(me.body).locale).toBe('en');

    // the settings: the profile with the mails' language
    const updated = await call(h, 'PUT', '/api/user/profile', {
      identity: session.identity,
      body: { firstName: 'Taro', lastName: 'Yamada', locale: 'fr' },
      headers: japaneseBrowser,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ firstName: 'Taro', lastName: 'Yamada', locale: 'fr' });

    // asked from a Japanese browser: the member's French wins
    const asked = await call(h, 'POST', '/api/auth/request-password-reset', {
      body: { email },
      headers: japaneseBrowser,
    });
    expect(asked.status).toBe(200);
    const reset = await waitForMail(email, 2);
    expect(reset.subject).toBe('[Pagecast] Réinitialisez votre mot de passe');
    expect(reset.text.split('\n')[0]).toBe('Bonjour Taro Yamada,');

    // a profile update without a language keeps it
    const profileOnly = await call(h, 'PUT', '/api/user/profile', {
      identity: session.identity,
      body: { firstName: 'Taro', lastName: 'Yamada' },
    });
    expect(profileOnly.body.locale).toBe('fr');
  });

  it('greets in Japanese family name first with 様, and in Italian with Gentile', async () => {
    const ja = await registered('ja', { 'accept-language': 'en' });
    const jaMail = await waitForMail(ja, 1);
    expect(jaMail.subject).toBe('【Pagecast】メールアドレスの確認');
    expect(jaMail.text.split('\n')[0]).toBe('Yamada Taro 様');

    const email = uniqueEmail('lang-ja');
    await call(h, 'POST', '/api/auth/register', {
      body: { email, firstName: '太郎', lastName: '山田', password, locale: 'ja' },
    });
    expect((await waitForMail(email, 1)).text.split('\n')[0]).toBe('山田 太郎 様');

    const it_ = await registered('it', japaneseBrowser);
    const itMail = await waitForMail(it_, 1);
    expect(itMail.subject).toBe('[Pagecast] Conferma il tuo indirizzo e-mail');
    expect(itMail.text.split('\n')[0]).toBe('Gentile Taro Yamada,');
  });

  it('refuses a language it does not write, and changes nothing', async () => {
    const email = await registered('en', {});
    await waitForMail(email, 1);
    const stored = await h.server.context.data.users.findByEmail(email);
    // a session for the member without the verification round trip: log in needs a verified address
    await h.server.context.data.users.model.updateOne({ email }, { $set: { emailVerified: true } });
    const { session } = await login(h, email, password);
    const refused = await call(h, 'PUT', '/api/user/profile', {
      identity: session.identity,
      body: { firstName: 'Changed', lastName: 'Name', locale: 'de' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'VALIDATION' });
    expect(refused.body.issues).toEqual([
      expect.objectContaining({ path: 'locale', key: 'validation.languageInvalid' }),
    ]);
    const after = await h.server.context.data.users.findByEmail(email);
    expect(after).toMatchObject({ firstName: stored?.firstName, lastName: stored?.lastName, locale: 'en' });
    const badRegistration = await call(h, 'POST', '/api/auth/register', {
      body: { email: uniqueEmail('lang-de'), firstName: 'A', lastName: 'B', password, locale: 'de' },
    });
    expect(badRegistration.status).toBe(400);
  });

  it('of an account stored without a language is the asking browser’s, else Japanese', async () => {
    const email = await registered('en', {});
    await waitForMail(email, 1);
    await h.server.context.data.users.model.updateOne({ email }, { $set: { locale: null } });
    const ask = async (headers: Record<string, string>, count: number) => {
      await call(h, 'POST', '/api/auth/request-password-reset', { body: { email }, headers });
      return (await waitForMail(email, count)).subject;
    };
    expect(await ask({ 'accept-language': 'de-DE,it;q=0.9' }, 2)).toBe('[Pagecast] Reimposta la tua password');
    expect(await ask({ 'accept-language': 'fr-FR,fr;q=0.9' }, 3)).toBe('[Pagecast] Réinitialisez votre mot de passe');
    expect(await ask({}, 4)).toBe('【Pagecast】パスワードの再設定');
    // an address without an account is answered alike, and gets nothing
    const nobody = uniqueEmail('lang-nobody');
    const known = await call(h, 'POST', '/api/auth/request-password-reset', {
      body: { email },
      headers: japaneseBrowser,
    });
    const unknown = await call(h, 'POST', '/api/auth/request-password-reset', {
      body: { email: nobody },
      headers: japaneseBrowser,
    });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(known.body).toEqual({ ok: true }); // no sentence: the page words it
    await h.server.context.background.idle();
    expect(await mailsTo(nobody)).toEqual([]);
  });
});
