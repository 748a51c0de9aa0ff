import { randomUUID } from 'node:crypto';
import { authProviders, type MembershipTier, membershipTiers } from '@pagecast/contracts';
import mongoose from 'mongoose';
import { newMemberDefaults, type UserRecord } from '../domain';

const nullableDate = { type: Date, default: null };
const nullableString = { type: String, default: null };

const userSchema = new mongoose.Schema<UserRecord>(
  {
    _id: { type: String, required: true },
    // Stored lowercased (the contracts' Email schema lowercases), so the unique index is case-insensitive.
    email: { type: String, required: true, unique: true },
    firstName: nullableString,
    lastName: nullableString,
    profileImageUrl: nullableString,
    points: { type: Number, required: true },
    membershipTier: { type: String, enum: membershipTiers, required: true },
    pendingDowngradeTier: { type: String, enum: [...membershipTiers, null], default: null },
    downgradeEffectiveMonth: { type: Number, default: null },
    trialEndsAt: nullableDate,
    passwordHash: nullableString,
    authProvider: { type: String, enum: authProviders, required: true },
    emailVerified: { type: Boolean, default: false },
    verificationTokenHash: nullableString,
    verificationExpires: nullableDate,
    passwordResetTokenHash: nullableString,
    passwordResetExpires: nullableDate,
    migratedAt: nullableDate,
    hasSeenWelcome: { type: Boolean, default: false },
    firstLoginAt: nullableDate,
    locale: nullableString,
    pointsSyncedAt: nullableDate,
    membershipSyncedAt: nullableDate,
  },
  { collection: 'users', versionKey: false, timestamps: true, minimize: false },
);
userSchema.index({ verificationTokenHash: 1 });
userSchema.index({ passwordResetTokenHash: 1 });

const defineModel = (conn: mongoose.Connection) => conn.model('User', userSchema);
type UserModel = ReturnType<typeof defineModel>;

export interface NewUser {
  email: string;
  firstName: string;
  lastName: string;
  passwordHash: string | null;
  authProvider: UserRecord['authProvider'];
  emailVerified: boolean;
  locale: string | null;
  verificationTokenHash?: string;
  verificationExpires?: Date;
}

const after = { returnDocument: 'after' as const, lean: true as const };

export function createUserRepository(conn: mongoose.Connection) {
  const model = (conn.models.User as UserModel | undefined) ?? defineModel(conn);

  return {
    model,
    /** Inserts a user; a taken e-mail surfaces as a duplicate-key error (E11000). */
    async create(input: NewUser): Promise<UserRecord> {
      const now = new Date();
      const doc = await model.create({ _id: randomUUID(), ...newMemberDefaults(now), ...input });
      return doc.toObject();
    },
    findById(id: string): Promise<UserRecord | null> {
      return model.findById(id).lean<UserRecord>();
    },
    findByEmail(email: string): Promise<UserRecord | null> {
      return model.findOne({ email: email.trim().toLowerCase() }).lean<UserRecord>();
    },
    /** Sets a new verification token, replacing any earlier one, on an unverified local account. */
    replaceVerificationToken(id: string, hash: string, expires: Date): Promise<UserRecord | null> {
      return model.findOneAndUpdate(
        { _id: id, emailVerified: false },
        { $set: { verificationTokenHash: hash, verificationExpires: expires } },
        after,
      );
    },
    /** Consumes a verification token (the caller has claimed it: see Accounts.useToken). */
    consumeVerificationToken(hash: string, now: Date): Promise<UserRecord | null> {
      return model.findOneAndUpdate(
        { verificationTokenHash: hash, verificationExpires: { $gt: now } },
        { $set: { emailVerified: true, verificationTokenHash: null, verificationExpires: null } },
        after,
      );
    },
    setResetToken(id: string, hash: string, expires: Date): Promise<UserRecord | null> {
      return model.findOneAndUpdate(
        { _id: id, authProvider: 'local' },
        { $set: { passwordResetTokenHash: hash, passwordResetExpires: expires } },
        after,
      );
    },
    /** Consumes a reset token and sets the new password in one step. A reset proves the mailbox: verified. */
    consumeResetToken(hash: string, passwordHash: string, now: Date): Promise<UserRecord | null> {
      return model.findOneAndUpdate(
        { passwordResetTokenHash: hash, passwordResetExpires: { $gt: now }, authProvider: 'local' },
        {
          $set: { passwordHash, emailVerified: true, passwordResetTokenHash: null, passwordResetExpires: null },
        },
        after,
      );
    },
    setPassword(id: string, passwordHash: string): Promise<UserRecord | null> {
      return model.findOneAndUpdate({ _id: id, authProvider: 'local' }, { $set: { passwordHash } }, after);
    },
    /** Records the first login (informational; which login is the first is decided by a claim). */
    async recordFirstLogin(id: string, now: Date): Promise<void> {
      await model.updateOne({ _id: id, firstLoginAt: null }, { $set: { firstLoginAt: now } });
    },
    /** The user holding a verification or reset token that has not expired. */
    findByVerificationToken(hash: string, now: Date): Promise<UserRecord | null> {
      return model.findOne({ verificationTokenHash: hash, verificationExpires: { $gt: now } }).lean<UserRecord>();
    },
    findByResetToken(hash: string, now: Date): Promise<UserRecord | null> {
      return model
        .findOne({ passwordResetTokenHash: hash, passwordResetExpires: { $gt: now }, authProvider: 'local' })
        .lean<UserRecord>();
    },
    markWelcomeSeen(id: string): Promise<UserRecord | null> {
      return model.findOneAndUpdate({ _id: id }, { $set: { hasSeenWelcome: true } }, after);
    },
    updateProfile(
      id: string,
      fields: { firstName: string; lastName: string; profileImageUrl?: string | null },
    ): Promise<UserRecord | null> {
      return model.findOneAndUpdate({ _id: id }, { $set: fields }, after);
    },
    /**
     * External → local. The 100-point bonus is billing's ledger entry (from account.user.migrated.v1): points here
     * change only through billing's balance events.
     */
    migrate(id: string, passwordHash: string, now: Date): Promise<UserRecord | null> {
      return model.findOneAndUpdate(
        { _id: id, authProvider: 'external', migratedAt: null },
        { $set: { passwordHash, authProvider: 'local', migratedAt: now } },
        after,
      );
    },
    /** Billing's balance, unless a newer one was applied already (idempotent, order-safe). */
    async applyPoints(id: string, balance: number, at: Date): Promise<boolean> {
      const res = await model.updateOne(
        { _id: id, $or: [{ pointsSyncedAt: null }, { pointsSyncedAt: { $lte: at } }] },
        { $set: { points: balance, pointsSyncedAt: at } },
      );
      return res.matchedCount === 1;
    },
    async applyMembership(
      id: string,
      m: { tier: MembershipTier; pendingDowngradeTier: MembershipTier | null; downgradeEffectiveMonth: number | null },
      at: Date,
    ): Promise<boolean> {
      const res = await model.updateOne(
        { _id: id, $or: [{ membershipSyncedAt: null }, { membershipSyncedAt: { $lte: at } }] },
        {
          $set: {
            membershipTier: m.tier,
            pendingDowngradeTier: m.pendingDowngradeTier,
            downgradeEffectiveMonth: m.downgradeEffectiveMonth,
            membershipSyncedAt: at,
          },
        },
      );
      return res.matchedCount === 1;
    },
  };
}
export type UserRepository = ReturnType<typeof createUserRepository>;
