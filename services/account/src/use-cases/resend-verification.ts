import { type Locale, newToken, type UserRecord, VERIFICATION_TOKEN_TTL_MS, verificationMail } from '../domain';
import type { AccountDeps } from './deps';

async function sendVerification(deps: AccountDeps, user: UserRecord, locale: Locale) {
  const { token, hash } = newToken();
  const updated = await deps.data.users.replaceVerificationToken(
    user._id,
    hash,
    new Date(deps.clock.ms() + VERIFICATION_TOKEN_TTL_MS),
  );
  if (!updated) return; // verified in the meantime
  await deps.mailer.send(
    user.email,
    verificationMail(locale, {
      publicUrl: deps.publicUrl,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      token,
    }),
  );
  deps.logger.info({ userId: user._id, locale }, 'verification mail sent');
}

/**
 * Same answer whatever the address; the work happens after the answer. The mail is in the member's language
 * (`locale` gets the stored one: see chooseLocale).
 */
export function resendVerification(deps: AccountDeps, email: string, locale: (stored: string | null) => Locale) {
  deps.background.run('resend verification', async () => {
    const user = await deps.data.users.findByEmail(email);
    if (!user || user.emailVerified || user.authProvider !== 'local') return;
    await sendVerification(deps, user, locale(user.locale));
  });
  return { ok: true as const };
}
