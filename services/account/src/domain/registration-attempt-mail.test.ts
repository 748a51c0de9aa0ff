import { describe, expect, it } from 'vitest';
import { registrationAttemptMail } from './mail-templates';

const holder = { email: 'taro@example.test', firstName: 'Taro', lastName: 'Yamada', publicUrl: 'https://app.test' };
const reset = 'https://app.test/request-password-reset?email=taro%40example.test';

describe('the mail to the holder of an address registered again', () => {
  it.each(['ja', 'en', 'fr', 'it'] as const)('in %s: its own words, both ways out, no token', (locale) => {
    const mail = registrationAttemptMail(locale, { ...holder, canReset: true });
    const english = registrationAttemptMail('en', { ...holder, canReset: true });
    if (locale !== 'en') expect(mail.subject).not.toBe(english.subject);
    expect(mail.text).toContain('https://app.test/login');
    expect(mail.text).toContain(reset);
    expect(mail.html).toContain('href="https://app.test/login"');
    expect(mail.html).toContain(`href="${reset.replace('&', '&#38;')}"`);
    expect(mail.text).not.toMatch(/token=/);
  });

  it('offers no password reset to an account without a password of its own', () => {
    const mail = registrationAttemptMail('ja', { ...holder, canReset: false });
    expect(mail.text).toContain('https://app.test/login');
    expect(mail.text).not.toContain('request-password-reset');
    expect(mail.html).not.toContain('request-password-reset');
  });

  it('escapes the name in the HTML', () => {
    const mail = registrationAttemptMail('en', { ...holder, firstName: '<b>x</b>', canReset: true });
    expect(mail.html).not.toContain('<b>x</b>');
  });
});
