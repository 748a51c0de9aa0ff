import { describe, expect, it } from 'vitest';
import { invitationMail, roleNames } from './invitation-mail';

const base = {
  publicUrl: 'https://app.test',
  token: 'tok_en-1',
  to: { email: 'ann@example.test', firstName: null, lastName: null },
  inviter: { email: 'taro@example.test', firstName: 'Taro', lastName: 'Yamada' },
  workspaceName: 'Shop <North> & Co',
  role: 'broadcaster' as const,
};

describe('the invitation mail', () => {
  it.each(['ja', 'en', 'fr', 'it'] as const)('in %s: its own words, the role, 7 days, the link', (locale) => {
    const mail = invitationMail(locale, base);
    const english = invitationMail('en', base);
    if (locale !== 'en') expect(mail.subject).not.toBe(english.subject);
    expect(mail.text).toContain('https://app.test/invitations/tok_en-1');
    expect(mail.text).toContain(roleNames[locale].broadcaster);
    expect(mail.text).toContain('7');
    // the name of the inviter in the language's order, the workspace's as given
    expect(mail.text).toContain(locale === 'ja' ? 'Yamada Taro' : 'Taro Yamada');
    expect(mail.text).toContain('Shop <North> & Co');
    // in the HTML part, what the workspace's owner typed is escaped
    expect(mail.html).not.toContain('<North>');
    expect(mail.html).toContain('Shop &#60;North&#62; &#38; Co');
  });

  it('greets a person without an account by the address, one with an account by name', () => {
    expect(invitationMail('en', base).text.split('\n')[0]).toBe('Hello ann@example.test,');
    const named = invitationMail('ja', { ...base, to: { ...base.to, firstName: '花子', lastName: '佐藤' } });
    expect(named.text.split('\n')[0]).toBe('佐藤 花子 様');
  });
});
