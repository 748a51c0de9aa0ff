import {
  type ChangePasswordRequest,
  type ContactRequest,
  constants,
  type CurrentUser,
  type LocalLoginRequest,
  type MigrateAccountRequest,
  type RegisterRequest,
  subjects,
  type UpdateProfileRequest,
} from '@pagecast/contracts';
import { AppError, isDuplicateKeyError, type Logger, type Outbox } from '@pagecast/service-kit';
import type { Mailer, Repositories } from '../data';
import {
  hashPassword,
  hashToken,
  LOGIN_FAILURES_PER_ACCOUNT,
  LOGIN_FAILURES_PER_ADDRESS,
  LOGIN_WINDOW_MS,
  type Locale,
  messages,
  newToken,
  passwordResetMail,
  RESET_TOKEN_TTL_MS,
  SESSION_LIFETIME_MS,
  stableUuid,
  toCurrentUser,
  type UserRecord,
  VERIFICATION_TOKEN_TTL_MS,
  verificationMail,
  verifyPassword,
} from '../domain';
import type { Background } from './background';
import type { SessionTokens } from '../data/session-tokens';

export interface AccountDeps {
  publicUrl: string;
  /** Failed logins allowed per address in the window (LOGIN_FAILURES_PER_ADDRESS by default). */
  loginFailuresPerAddress?: number;
  logger: Logger;
  data: Repositories;
  outbox: Outbox;
  mailer: Mailer;
  tokens: SessionTokens;
  background: Background;
}

export interface NewSession {
  sid: string;
  token: string;
  maxAgeSeconds: number;
}

/** Thrown by login for an unverified address; the route answers the spec's 403 body. */
export class EmailNotVerified extends AppError {
  constructor(readonly email: string) {
    super('EMAIL_NOT_VERIFIED', { message: messages.emailNotVerified });
  }
}

/** The use cases of account: what the routes call once the input is parsed. */
export function createAccounts(deps: AccountDeps) {
  const { data, outbox, mailer, tokens, background, logger } = deps;

  const mustFindUser = async (userId: string): Promise<UserRecord> => {
    const user = await data.users.findById(userId);
    if (!user) throw new AppError('UNAUTHORIZED');
    return user;
  };

  /** Deletes sessions and announces each revocation (the gateway stops accepting their tokens). */
  const revoke = async (userId: string, sids: string[]) => {
    const revokedAt = new Date().toISOString();
    for (const sessionId of sids) await outbox.add(subjects.sessionRevoked, { sessionId, userId, revokedAt });
  };

  const sendVerification = async (user: UserRecord, locale: Locale) => {
    const { token, hash } = newToken();
    const updated = await data.users.replaceVerificationToken(
      user._id,
      hash,
      new Date(Date.now() + VERIFICATION_TOKEN_TTL_MS),
    );
    if (!updated) return; // verified in the meantime
    await mailer.send(
      user.email,
      verificationMail(locale, { publicUrl: deps.publicUrl, email: user.email, firstName: user.firstName, token }),
    );
    logger.info({ userId: user._id, locale }, 'verification mail sent');
  };

  const openSession = async (userId: string, meta: { userAgent: string | null; ip: string | null }) => {
    const session = await data.sessions.create({ userId, ...meta, lifetimeMs: SESSION_LIFETIME_MS });
    const token = await tokens.sign(userId, session._id);
    return { sid: session._id, token, maxAgeSeconds: Math.floor(SESSION_LIFETIME_MS / 1000) };
  };

  /**
   * A token is used once: the first caller to claim its hash (an insert, atomic on FerretDB) goes on; the
   * claim outlives the token's expiry, after which the token is refused anyway.
   */
  const useToken = (hash: string, ttlMs: number) =>
    data.claims.claim(`token:${hash}`, { expire: new Date(Date.now() + ttlMs + 3600_000) });

  /** The migration event has a stable id: republishing it (a retry, a repair) can never grant twice. */
  const announceMigration = (user: UserRecord) =>
    outbox.add(
      subjects.userMigrated,
      {
        userId: user._id,
        bonusPoints: constants.migrationBonusPoints,
        migratedAt: (user.migratedAt ?? new Date()).toISOString(),
      },
      { id: stableUuid(`account.user.migrated:${user._id}`) },
    );

  return {
    async register(input: RegisterRequest, locale: Locale) {
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
        { id: stableUuid(`account.user.registered:${user._id}`) },
      );
      background.run('verification mail', () =>
        mailer.send(
          user.email,
          verificationMail(locale, { publicUrl: deps.publicUrl, email: user.email, firstName: user.firstName, token }),
        ),
      );
      return { message: messages.registered, email: user.email, requiresVerification: true };
    },

    async verifyEmail(token: string) {
      const hash = hashToken(token);
      const holder = await data.users.findByVerificationToken(hash, new Date());
      if (!holder || !(await useToken(hash, VERIFICATION_TOKEN_TTL_MS))) throw new AppError('TOKEN_INVALID');
      const user = await data.users.consumeVerificationToken(hash, new Date());
      if (!user) throw new AppError('TOKEN_INVALID');
      await outbox.add(subjects.userVerified, {
        userId: user._id,
        email: user.email,
        verifiedAt: new Date().toISOString(),
      });
      return { message: messages.verified, email: user.email };
    },

    /** Same answer whatever the address; the work happens after the answer. */
    resendVerification(email: string, locale: (stored: string | null) => Locale) {
      background.run('resend verification', async () => {
        const user = await data.users.findByEmail(email);
        if (!user || user.emailVerified || user.authProvider !== 'local') return;
        await sendVerification(user, locale(user.locale));
      });
      return { message: messages.verificationSent };
    },

    requestPasswordReset(email: string, locale: (stored: string | null) => Locale) {
      background.run('password reset mail', async () => {
        const user = await data.users.findByEmail(email);
        // Old external accounts have no password to reset: they migrate instead.
        if (user?.authProvider !== 'local') return;
        const { token, hash } = newToken();
        const updated = await data.users.setResetToken(user._id, hash, new Date(Date.now() + RESET_TOKEN_TTL_MS));
        if (!updated) return;
        const l = locale(user.locale);
        await mailer.send(
          user.email,
          passwordResetMail(l, { publicUrl: deps.publicUrl, email: user.email, firstName: user.firstName, token }),
        );
        logger.info({ userId: user._id, locale: l }, 'password reset mail sent');
      });
      return { message: messages.resetRequested };
    },

    async resetPassword(token: string, newPassword: string) {
      const hash = hashToken(token);
      const holder = await data.users.findByResetToken(hash, new Date());
      if (!holder || !(await useToken(hash, RESET_TOKEN_TTL_MS))) throw new AppError('TOKEN_INVALID');
      const passwordHash = await hashPassword(newPassword);
      const user = await data.users.consumeResetToken(hash, passwordHash, new Date());
      if (!user) throw new AppError('TOKEN_INVALID');
      await revoke(user._id, await data.sessions.removeAllOfUser(user._id));
      return { message: messages.passwordReset };
    },

    /**
     * Failed attempts are counted per account and per address before the password is checked (so parallel
     * guesses cannot slip past the limit); a successful login takes its count back. One attempt record counts for
     * both, and the member is read meanwhile: the database is not what a login waits on, the hash is.
     */
    async login(
      input: LocalLoginRequest,
      meta: { userAgent: string | null; ip: string | null },
    ): Promise<{ session: NewSession; isFirstLogin: boolean; user: CurrentUser }> {
      // A real promise (a query runs again on each then): awaited below unless refused first.
      const userRead = Promise.resolve(data.users.findByEmail(input.email));
      userRead.catch(() => {});
      const hit = await data.rateLimits.hit(
        [`login:account:${input.email}`, `login:address:${meta.ip ?? 'unknown'}`],
        LOGIN_WINDOW_MS,
      );
      const limits = [LOGIN_FAILURES_PER_ACCOUNT, deps.loginFailuresPerAddress ?? LOGIN_FAILURES_PER_ADDRESS];
      const over = limits.flatMap((limit, i) => ((hit.counts[i] ?? 0) > limit ? [i] : []));
      if (over.length > 0) {
        // A refused attempt is not a guess: do not let it extend the lock.
        await hit.undo();
        const retryAfterSeconds = Math.max(...over.map((i) => hit.retryAfterSeconds(i)));
        throw new AppError('RATE_LIMITED', { details: { retryAfterSeconds } });
      }
      const user = await userRead;
      // Unknown address and external account (no password) take the same time and answer as a wrong password.
      const ok = await verifyPassword(user?.passwordHash, input.password);
      if (!user || !ok) throw new AppError('INVALID_CREDENTIALS');
      if (!user.emailVerified) {
        await hit.undo();
        throw new EmailNotVerified(user.email);
      }
      // Taking the attempt back and opening the session are independent writes: one wait, not two.
      const [, session] = await Promise.all([hit.undo(), openSession(user._id, meta)]);
      // Later logins skip the claim (an insert) when the first one is already recorded.
      const isFirstLogin = !user.firstLoginAt && (await data.claims.claim(`first-login:${user._id}`));
      if (isFirstLogin) await data.users.recordFirstLogin(user._id, new Date());
      return { session, isFirstLogin, user: toCurrentUser(user) };
    },

    /** A session for an account (the login above, and the operator command for old external accounts). */
    openSession,

    async logout(userId: string, sid: string) {
      const removed = await data.sessions.remove(sid);
      if (removed && removed.sess.userId === userId) await revoke(userId, [sid]);
    },

    async currentUser(userId: string): Promise<CurrentUser> {
      return toCurrentUser(await mustFindUser(userId));
    },

    async markWelcomeSeen(userId: string) {
      if (!(await data.users.markWelcomeSeen(userId))) throw new AppError('UNAUTHORIZED');
      return { ok: true as const };
    },

    async updateProfile(userId: string, input: UpdateProfileRequest): Promise<CurrentUser> {
      const fields: { firstName: string; lastName: string; profileImageUrl?: string | null } = {
        firstName: input.firstName,
        lastName: input.lastName,
      };
      // Absent keeps the picture; empty or null clears it.
      if (input.profileImageUrl !== undefined) fields.profileImageUrl = input.profileImageUrl || null;
      const user = await data.users.updateProfile(userId, fields);
      if (!user) throw new AppError('UNAUTHORIZED');
      await outbox.add(subjects.userUpdated, {
        userId: user._id,
        email: user.email,
        firstName: user.firstName ?? '',
        lastName: user.lastName ?? '',
        profileImageUrl: user.profileImageUrl,
        updatedAt: user.updatedAt.toISOString(),
      });
      return toCurrentUser(user);
    },

    /** Local accounts only; the current password is checked; every other session of the user ends. */
    async changePassword(userId: string, currentSid: string, input: ChangePasswordRequest) {
      const user = await mustFindUser(userId);
      if (user.authProvider !== 'local' || !user.passwordHash) throw new AppError('NOT_LOCAL_ACCOUNT');
      if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
        throw new AppError('WRONG_CURRENT_PASSWORD');
      }
      const updated = await data.users.setPassword(userId, await hashPassword(input.newPassword));
      if (!updated) throw new AppError('NOT_LOCAL_ACCOUNT');
      await revoke(userId, await data.sessions.removeAllOfUser(userId, currentSid));
      return { message: messages.passwordChanged };
    },

    /**
     * Once per account: the first call claims the migration (an insert), so a concurrent or repeated call can
     * neither set another password nor grant the bonus again.
     */
    async migrate(userId: string, input: MigrateAccountRequest) {
      const before = await mustFindUser(userId);
      if (before.authProvider !== 'external') {
        // A retry after a crash between the update and the event: publish it now (same id, so at most once).
        if (before.migratedAt) await announceMigration(before);
        throw new AppError('NOT_MIGRATABLE');
      }
      const claimId = `migration:${userId}`;
      const passwordHash = await hashPassword(input.password);
      if (!(await data.claims.claim(claimId, { data: { passwordHash } }))) {
        // Another call claimed it. If that one died before finishing (a minute on), finish it with its password.
        const claim = await data.claims.get(claimId);
        const stale = claim && Date.now() - claim.at.getTime() > 60_000;
        const hashOfClaim = claim?.data?.passwordHash;
        if (!stale || typeof hashOfClaim !== 'string') throw new AppError('NOT_MIGRATABLE');
        const finished = await data.users.migrate(userId, hashOfClaim, claim.at);
        if (finished) await announceMigration(finished);
        throw new AppError('NOT_MIGRATABLE');
      }
      const bonus = constants.migrationBonusPoints;
      const user = await data.users.migrate(userId, passwordHash, new Date());
      if (!user) throw new AppError('NOT_MIGRATABLE');
      await announceMigration(user);
      return { message: messages.migrated, migrationBonus: bonus, user: toCurrentUser(user) };
    },

    async contact(input: ContactRequest, userId: string | null) {
      await data.contactMessages.create({ ...input, userId });
      return { message: messages.contactReceived };
    },

    /** A new token for a live session whose owner is the caller; null when it is gone or expired. */
    async refresh(userId: string, sid: string) {
      const session = await data.sessions.findActive(sid);
      if (!session || session.sess.userId !== userId) return null;
      const token = await tokens.sign(userId, sid);
      const expiresAt = Math.floor(session.expire.getTime() / 1000);
      return { token, expiresAt, maxAgeSeconds: Math.max(0, expiresAt - Math.floor(Date.now() / 1000)) };
    },

    /** The caller's session, checked against the store (a revoked one fails even before the gateway hears). */
    async sessionAlive(userId: string, sid: string): Promise<boolean> {
      const session = await data.sessions.findActive(sid);
      return session?.sess.userId === userId;
    },
  };
}
export type Accounts = ReturnType<typeof createAccounts>;
