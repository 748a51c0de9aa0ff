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

/** Success texts (Japanese, like every default message; the front ends show their own translated toasts). */
export const messages = {
  registered: '登録が完了しました。確認メールを送信しましたので、メール内のリンクから認証を完了してください。',
  loggedIn: 'ログインしました',
  emailNotVerified: 'メール認証が必要です。送信された確認メールのリンクから認証を完了してください。',
  verified: 'メールアドレスが確認されました。ログインしてください。',
  verificationSent: '確認メールを送信しました（未認証のアカウントがある場合）。メールをご確認ください。',
  resetRequested: 'パスワードリセット用のメールを送信しました（登録されている場合）。メールをご確認ください。',
  passwordReset: 'パスワードを変更しました。新しいパスワードでログインしてください。',
  passwordChanged: 'パスワードを変更しました',
  migrated: 'アカウントの移行が完了しました',
  contactReceived: 'お問い合わせを受け付けました。ご連絡をお待ちください。',
} as const;
