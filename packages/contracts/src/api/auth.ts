import { z } from 'zod';
import { defineRoutes } from '../route-def';
import { Email, EmptyBody, FirstName, LastName, NewPassword, OkResponse, PasswordInput } from '../validation';
import { CurrentUser, Locale, SetPasswordForm } from './user';

export const LocalLoginRequest = z.object({ email: Email, password: PasswordInput });
export type LocalLoginRequest = z.infer<typeof LocalLoginRequest>;
/**
 * 200 answer, what the spec's client reads; the member comes from GET /api/auth/user next (with billing's figures,
 * which a login does not read). A 403 for an unverified address is EmailNotVerifiedBody (errors).
 */
export const LocalLoginResponse = z.object({
  isFirstLogin: z.boolean(),
});
export type LocalLoginResponse = z.infer<typeof LocalLoginResponse>;
export const LoginForm = LocalLoginRequest;
export type LoginForm = LocalLoginRequest;

export const RegisterRequest = z.object({
  email: Email,
  firstName: FirstName,
  lastName: LastName,
  password: NewPassword,
  /** the language of the page that registers: stored as the member's language, that of every e-mail (optional) */
  locale: Locale.optional(),
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;
export const RegisterForm = RegisterRequest.omit({ locale: true });
export type RegisterForm = z.infer<typeof RegisterForm>;
export const RegisterResponse = z.object({ email: z.string(), requiresVerification: z.boolean() });
export type RegisterResponse = z.infer<typeof RegisterResponse>;

export const RequestPasswordResetRequest = z.object({ email: Email });
export type RequestPasswordResetRequest = z.infer<typeof RequestPasswordResetRequest>;
export const RequestPasswordResetForm = RequestPasswordResetRequest;

export const ResetToken = z.string({ error: 'validation.resetTokenRequired' }).min(1, 'validation.resetTokenRequired');
export const ResetPasswordRequest = z.object({ token: ResetToken, newPassword: NewPassword });
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;
/** The reset page's fields (the token comes from the query string; confirmation is never sent). */
export const ResetPasswordForm = z
  .object({
    newPassword: NewPassword,
    confirmPassword: z.string({ error: 'validation.passwordsDoNotMatch' }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: 'validation.passwordsDoNotMatch',
    path: ['confirmPassword'],
  });
export type ResetPasswordForm = z.infer<typeof ResetPasswordForm>;

export const VerifyEmailRequest = z.object({
  token: z.string({ error: 'validation.tokenRequired' }).trim().min(1, 'validation.tokenRequired'),
});
export type VerifyEmailRequest = z.infer<typeof VerifyEmailRequest>;
export const VerifyEmailResponse = z.object({ email: z.string().optional() });
export type VerifyEmailResponse = z.infer<typeof VerifyEmailResponse>;

export const ResendVerificationRequest = z.object({ email: Email });
export type ResendVerificationRequest = z.infer<typeof ResendVerificationRequest>;

/** Migration from the old external login to a local password (12+ characters, the spec's "8" text is a defect). */
export const MigrateAccountRequest = SetPasswordForm;
export type MigrateAccountRequest = SetPasswordForm;
export const MigrateAccountForm = SetPasswordForm;
export const MigrateAccountResponse = z.object({
  migrationBonus: z.number().int(),
  user: CurrentUser,
});
export type MigrateAccountResponse = z.infer<typeof MigrateAccountResponse>;

/** /api/login and /api/logout are browser navigations answered with a redirect. */
export const RedirectResponse = z.null().describe('302 redirect (Location header)');

export const accountRoutes = defineRoutes([
  {
    id: 'getCurrentUser',
    method: 'get',
    path: '/api/auth/user',
    service: 'account',
    auth: 'optional',
    action: 'personal',
    summary: 'The signed-in user; 401 UNAUTHORIZED when anonymous',
    response: CurrentUser,
  },
  {
    id: 'localLogin',
    method: 'post',
    path: '/api/auth/local-login',
    service: 'account',
    auth: 'public',
    summary:
      'Log in with e-mail and password; sets the session cookie and the known-browser cookie (pc_known_browser). ' +
      '401 INVALID_CREDENTIALS alike for an unknown address and a wrong password; 403 EMAIL_NOT_VERIFIED carries ' +
      'requiresVerification and email; 429 RATE_LIMITED with details.retryAfterSeconds and Retry-After (sign-in ' +
      "throttle: strangers' failures do not hold a browser the account knows)",
    body: LocalLoginRequest,
    response: LocalLoginResponse,
  },
  {
    id: 'register',
    method: 'post',
    path: '/api/auth/register',
    service: 'account',
    auth: 'public',
    summary:
      'Create a local account and send the verification e-mail. An address that already has an account (in any ' +
      'case) gets the same answer, in the same time, and its holder an e-mail saying what to do (sign in or reset ' +
      'the password): the answer tells nobody which addresses have accounts',
    body: RegisterRequest,
    response: RegisterResponse,
  },
  {
    id: 'requestPasswordReset',
    method: 'post',
    path: '/api/auth/request-password-reset',
    service: 'account',
    auth: 'public',
    summary: 'Send a password-reset link (same answer whether or not the address exists)',
    body: RequestPasswordResetRequest,
    response: OkResponse,
  },
  {
    id: 'resetPassword',
    method: 'post',
    path: '/api/auth/reset-password',
    service: 'account',
    auth: 'public',
    summary:
      'Set a new password with a reset token; ends every session, lifts the sign-in throttle and sets the ' +
      'known-browser cookie (pc_known_browser). 400 TOKEN_INVALID',
    body: ResetPasswordRequest,
    response: OkResponse,
  },
  {
    id: 'verifyEmail',
    method: 'post',
    path: '/api/auth/verify-email',
    service: 'account',
    auth: 'public',
    summary: 'Verify an e-mail address with its token',
    body: VerifyEmailRequest,
    response: VerifyEmailResponse,
  },
  {
    id: 'resendVerification',
    method: 'post',
    path: '/api/auth/resend-verification',
    service: 'account',
    auth: 'public',
    summary: 'Send the verification e-mail again',
    body: ResendVerificationRequest,
    response: OkResponse,
  },
  {
    id: 'migrateAccount',
    method: 'post',
    path: '/api/auth/migrate-account',
    service: 'account',
    auth: 'session',
    action: 'personal',
    summary: 'Turn an old external-login account into a local one (100-point bonus)',
    body: MigrateAccountRequest,
    response: MigrateAccountResponse,
  },
  {
    id: 'markWelcomeSeen',
    method: 'post',
    path: '/api/auth/mark-welcome-seen',
    service: 'account',
    auth: 'session',
    action: 'personal',
    summary: 'Record that the welcome page was shown',
    body: EmptyBody,
    response: OkResponse,
  },
  {
    id: 'loginRedirect',
    method: 'get',
    path: '/api/login',
    service: 'account',
    auth: 'public',
    summary: 'Navigation: redirect to the login page',
    response: RedirectResponse,
    successStatus: 302,
  },
  {
    id: 'logout',
    method: 'get',
    path: '/api/logout',
    service: 'account',
    auth: 'optional',
    action: 'personal',
    summary:
      'Navigation: end the session, clear the cookie and redirect to /. From another site (Sec-Fetch-Site, else ' +
      'Origin or Referer): only the redirect to /, the session stays',
    // a get that changes state: a page of another site must not sign a member out
    crossSite: 'refused',
    response: RedirectResponse,
    successStatus: 302,
  },
]);
