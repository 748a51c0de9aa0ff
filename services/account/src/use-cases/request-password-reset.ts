import { type Locale, newToken, passwordResetMail, RESET_TOKEN_TTL_MS } from '../domain';
import type { AccountDeps } from './deps';

/**
 * Same answer whatever the address; the work happens after the answer. The mail is in the member's language
 * (`locale` gets the stored one: see chooseLocale).
 */
export function requestPasswordReset(deps: AccountDeps, email: string, locale: (stored: string | null) => Locale) {
  const { data, mailer, background, logger, clock } = deps;
  background.run('password reset mail', async () => {
    const user = await data.users.findByEmail(email);
    // Old external accounts have no password to reset: they migrate instead.
    if (user?.authProvider !== 'local') return;
    const { token, hash } = newToken();
    const updated = await data.users.setResetToken(user._id, hash, new Date(clock.ms() + RESET_TOKEN_TTL_MS));
    if (!updated) return;
    const l = locale(user.locale);
    await mailer.send(
      user.email,
      passwordResetMail(l, {
        publicUrl: deps.publicUrl,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        token,
      }),
    );
    logger.info({ userId: user._id, locale: l }, 'password reset mail sent');
  });
  return { ok: true as const };
}
