import { type RegisterRequest, subjects } from '@pagecast/contracts';
import { isDuplicateKeyError, nameUuid } from '@pagecast/service-kit';
import {
  hashPassword,
  type Locale,
  newToken,
  REGISTRATION_NOTICE_INTERVAL_MS,
  registrationAttemptMail,
  type UserRecord,
  VERIFICATION_TOKEN_TTL_MS,
  verificationMail,
} from '../domain';
import type { AccountDeps } from './deps';
import { createOwnWorkspace } from './own-workspace';

/**
 * A new local account, or, when the address already has one (in any case: addresses are stored lower-cased), the
 * same answer and a mail to its holder saying what to do. The answer waits for the same work either way: the hash
 * and the insert whose unique index decides who holds the address; what differs (the event, the mails) runs after
 * it, so neither the answer nor its time tells whether the address has an account. `locale` gets the holder's stored
 * language (null for a new account: then the page's, see chooseLocale).
 */
export async function register(
  deps: AccountDeps,
  input: RegisterRequest,
  locale: (stored: string | null) => Locale,
): Promise<{ email: string; requiresVerification: true }> {
  const { data, background } = deps;
  const { token, hash } = newToken();
  const passwordHash = await hashPassword(input.password);
  const ownLocale = locale(null);
  let user: UserRecord;
  try {
    user = await data.users.create(
      {
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        passwordHash,
        authProvider: 'local',
        emailVerified: false,
        locale: ownLocale,
        verificationTokenHash: hash,
        verificationExpires: new Date(deps.clock.ms() + VERIFICATION_TOKEN_TTL_MS),
      },
      { hint: 'later' },
    );
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    background.run('registration attempt mail', () => tellHolder(deps, input.email, locale));
    return { email: input.email, requiresVerification: true };
  }
  // The member is stored (the insert above). A lost hint is written by the sweeper's repair pass; the event goes
  // through the outbox, whose relay publishes it should its publication fail.
  background.run('address hint', () => data.users.rememberEmail(user.email, user._id));
  // Every account owns a workspace. After the answer, like the rest: a lost one is made by the next start's migration
  // or by the member's first list of workspaces.
  background.run('own workspace', async () => {
    await createOwnWorkspace(data, user, user.createdAt);
  });
  background.run('user registered event', () => announce(deps, user, input, ownLocale));
  background.run('verification mail', () => sendVerification(deps, user, ownLocale, token));
  return { email: user.email, requiresVerification: true };
}

async function announce(deps: AccountDeps, user: UserRecord, input: RegisterRequest, locale: Locale) {
  await deps.outbox.add(
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
}

async function sendVerification(deps: AccountDeps, user: UserRecord, locale: Locale, token: string) {
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
}

/** The holder hears of it at most once per REGISTRATION_NOTICE_INTERVAL_MS, so that repeated tries do not flood them. */
async function tellHolder(deps: AccountDeps, email: string, locale: (stored: string | null) => Locale) {
  const { data, mailer, logger } = deps;
  const holder = await data.users.findByEmail(email);
  if (!holder) return; // removed in the meantime
  const now = Date.now();
  const period = Math.floor(now / REGISTRATION_NOTICE_INTERVAL_MS);
  const first = await data.claims.claim(`registration-notice:${holder._id}:${period}`, {
    expire: new Date((period + 1) * REGISTRATION_NOTICE_INTERVAL_MS),
  });
  if (!first) return;
  const l = locale(holder.locale);
  await mailer.send(
    holder.email,
    registrationAttemptMail(l, {
      publicUrl: deps.publicUrl,
      email: holder.email,
      firstName: holder.firstName,
      lastName: holder.lastName,
      canReset: holder.authProvider === 'local',
    }),
  );
  logger.info({ userId: holder._id, locale: l }, 'registration attempt mail sent');
}
