import { z } from 'zod';
import { authProviders, constants } from '../constants';
import { defineRoutes } from '../route-def';
import { FirstName, IsoDateTime, LastName, MembershipTier, OkResponse, NewPassword } from '../validation';

/**
 * A member's language (ja, en, fr, it): the language of every e-mail account sends them. Set at registration from the
 * page's language, changed in the settings (PUT /api/user/profile).
 */
export const Locale = z.enum(constants.languages, { error: 'validation.languageInvalid' });
export type Locale = z.infer<typeof Locale>;

export const AuthProvider = z.enum(authProviders);
export type AuthProvider = z.infer<typeof AuthProvider>;

/** The signed-in user (GET /api/auth/user); points and tier are account's copy of billing's figures. */
export const CurrentUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  points: z.number().int(),
  membershipTier: MembershipTier,
  pendingDowngradeTier: MembershipTier.nullable(),
  /** YYYYMM */
  downgradeEffectiveMonth: z.number().int().nullable(),
  authProvider: AuthProvider,
  emailVerified: z.boolean(),
  hasSeenWelcome: z.boolean(),
  /** the language of the member's e-mails; null for an account stored before languages were (see account's README) */
  locale: Locale.nullable(),
  migratedAt: IsoDateTime.nullable(),
  /** end of the 30-day trial, when the user is or was on trial */
  trialEndsAt: IsoDateTime.nullable().optional(),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type CurrentUser = z.infer<typeof CurrentUser>;

/** http(s) URL or empty (empty clears the picture). */
export const ProfileImageUrl = z.union([
  z.literal(''),
  z.url({ protocol: /^https?$/, error: 'validation.urlInvalid' }).max(2048, 'validation.urlInvalid'),
]);

export const UpdateProfileRequest = z.object({
  firstName: FirstName,
  lastName: LastName,
  profileImageUrl: z.string({ error: 'validation.urlInvalid' }).trim().pipe(ProfileImageUrl).nullable().optional(),
  /** the language of the member's e-mails; absent keeps it */
  locale: Locale.optional(),
});
export type UpdateProfileRequest = z.infer<typeof UpdateProfileRequest>;
/** The settings form is what the server receives. */
export const ProfileForm = UpdateProfileRequest;
export type ProfileForm = UpdateProfileRequest;

export const ChangePasswordRequest = z
  .object({
    currentPassword: z
      .string({ error: 'validation.currentPasswordRequired' })
      .min(1, 'validation.currentPasswordRequired'),
    // Its own schema (not NewPassword.min) so a short one gets one issue, with the change form's text.
    newPassword: z
      .string({ error: 'validation.newPasswordMin12' })
      .min(constants.minPasswordLength, 'validation.newPasswordMin12')
      .max(constants.maxPasswordLength, 'validation.passwordMax128'),
    confirmPassword: z.string({ error: 'validation.passwordMin12' }).min(12, 'validation.passwordMin12'),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: 'validation.newPasswordsDoNotMatch',
    path: ['confirmPassword'],
  });
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;
export const ChangePasswordForm = ChangePasswordRequest;
export type ChangePasswordForm = ChangePasswordRequest;

/** Password and confirmation, both 12+ and equal (set-password and account migration). */
export const SetPasswordForm = z
  .object({
    password: NewPassword,
    confirmPassword: z.string({ error: 'validation.passwordMin12' }).min(12, 'validation.passwordMin12'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: 'validation.passwordsDoNotMatch',
    path: ['confirmPassword'],
  });
export type SetPasswordForm = z.infer<typeof SetPasswordForm>;

export const userRoutes = defineRoutes([
  {
    id: 'updateProfile',
    method: 'put',
    path: '/api/user/profile',
    service: 'account',
    auth: 'session',
    action: 'personal',
    summary: "Update first name, last name, profile image URL and the language of the member's e-mails (locale)",
    body: UpdateProfileRequest,
    response: CurrentUser,
  },
  {
    id: 'changePassword',
    method: 'put',
    path: '/api/user/password',
    service: 'account',
    auth: 'session',
    action: 'personal',
    summary: 'Change the password of a local account (other sessions are revoked)',
    body: ChangePasswordRequest,
    response: OkResponse,
  },
]);
