import { type RegisterRequest, subjects } from '@pagecast/contracts';
import { AppError, isDuplicateKeyError, nameUuid } from '@pagecast/service-kit';
import {
  hashPassword,
  type Locale,
  newToken,
  type UserRecord,
  VERIFICATION_TOKEN_TTL_MS,
  verificationMail,
} from '../domain';
import type { AccountDeps } from './deps';

/** A new local account; `locale` (the page's language, see chooseLocale) is stored as the member's language. */
export async function register(deps: AccountDeps, input: RegisterRequest, locale: Locale) {
  const { data, outbox, mailer, background } = deps;
  const { token, hash } = newToken();
  const passwordHash = await hashPassword(input.password);
  let user: UserRecord;
  try {
    user = await data.users.create({
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      passwordHash,
      authProvider: 'local',
      emailVerified: false,
      locale,
      verificationTokenHash: hash,
      verificationExpires: new Date(Date.now() + VERIFICATION_TOKEN_TTL_MS),
    });
  } catch (err) {
    if (isDuplicateKeyError(err)) throw new AppError('EMAIL_TAKEN', { cause: err });
    throw err;
  }
  await outbox.add(
    subjects.userRegistered,
    {
      userId: user._id,
      email: user.email,
      firstName: input.firstName,
      lastName: input.lastName,
      membershipTier: user.membershipTier,
      points: user.points,
      registeredAt: user.createdAt.toISOString(),
      locale,
    },
    { id: nameUuid(`account.user.registered:${user._id}`, 'v8') },
  );
  background.run('verification mail', () =>
    mailer.send(
      user.email,
      verificationMail(locale, {
        publicUrl: deps.publicUrl,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        token,
      }),
    ),
  );
  return { email: user.email, requiresVerification: true };
}
