import { type AuthProvider, constants, type CurrentUser, type MembershipTier } from '@pagecast/contracts';
import { supportedLocale } from './locale';

/** A user as account stores it (points and tier are its copy of billing's figures). */
export interface UserRecord {
  _id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  points: number;
  membershipTier: MembershipTier;
  pendingDowngradeTier: MembershipTier | null;
  downgradeEffectiveMonth: number | null;
  trialEndsAt: Date | null;
  passwordHash: string | null;
  authProvider: AuthProvider;
  emailVerified: boolean;
  verificationTokenHash: string | null;
  verificationExpires: Date | null;
  passwordResetTokenHash: string | null;
  passwordResetExpires: Date | null;
  migratedAt: Date | null;
  hasSeenWelcome: boolean;
  firstLoginAt: Date | null;
  locale: string | null;
  /** occurredAt of the last billing event applied, so an older one arriving late does not win */
  pointsSyncedAt: Date | null;
  membershipSyncedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Defaults of a new member (spec points 3 and 9): 300 points, 30-day trial. */
export function newMemberDefaults(now: Date): Pick<UserRecord, 'points' | 'membershipTier' | 'trialEndsAt'> {
  return {
    points: constants.initialPoints,
    membershipTier: constants.defaultMembershipTier,
    trialEndsAt: new Date(now.getTime() + constants.trialDays * 24 * 3600 * 1000),
  };
}

export function toCurrentUser(u: UserRecord): CurrentUser {
  return {
    id: u._id,
    email: u.email,
    firstName: u.firstName ?? null,
    lastName: u.lastName ?? null,
    profileImageUrl: u.profileImageUrl ?? null,
    points: u.points,
    membershipTier: u.membershipTier,
    pendingDowngradeTier: u.pendingDowngradeTier ?? null,
    downgradeEffectiveMonth: u.downgradeEffectiveMonth ?? null,
    authProvider: u.authProvider,
    emailVerified: u.emailVerified,
    hasSeenWelcome: u.hasSeenWelcome,
    locale: supportedLocale(u.locale) ?? null,
    migratedAt: u.migratedAt ? u.migratedAt.toISOString() : null,
    trialEndsAt: u.trialEndsAt ? u.trialEndsAt.toISOString() : null,
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
  };
}

/**
 * The spec's text of the unverified-address 403 (an error: its code is what clients translate). Success answers
 * carry no sentence: the front ends word them from their catalogues.
 */
export const messages = {
  emailNotVerified: 'メール認証が必要です。送信された確認メールのリンクから認証を完了してください。',
} as const;
