import {
  ChangePasswordRequest,
  ContactRequest,
  EmptyBody,
  LocalLoginRequest,
  MigrateAccountRequest,
  RegisterRequest,
  RequestPasswordResetRequest,
  ResendVerificationRequest,
  ResetPasswordRequest,
  SessionRefreshRequest,
  UpdateProfileRequest,
  VerifyEmailRequest,
} from '@pagecast/contracts';
import type { Action } from '@pagecast/policy';
import { AppError, type Actor, parseWith, requireActor } from '@pagecast/service-kit';
import { type Request, type Response, Router } from 'express';
import { chooseLocale, KNOWN_BROWSER_COOKIE } from '../domain';
import type { SessionTokens } from '../data/session-tokens';
import { changePassword } from '../use-cases/change-password';
import type { AccountDeps } from '../use-cases/deps';
import { getCurrentUser } from '../use-cases/get-current-user';
import { isSessionAlive } from '../use-cases/is-session-alive';
import { EmailNotVerified, login } from '../use-cases/login';
import { logout } from '../use-cases/logout';
import { markWelcomeSeen } from '../use-cases/mark-welcome-seen';
import { migrateAccount } from '../use-cases/migrate-account';
import { refreshSession } from '../use-cases/refresh-session';
import { register } from '../use-cases/register';
import { requestPasswordReset } from '../use-cases/request-password-reset';
import { resendVerification } from '../use-cases/resend-verification';
import { resetPassword } from '../use-cases/reset-password';
import { sendContactMessage } from '../use-cases/send-contact-message';
import { updateProfile } from '../use-cases/update-profile';
import { verifyEmail } from '../use-cases/verify-email';
import { clearSessionCookie, cookieValue, knownBrowserCookie, sessionCookie } from './cookies';
import { mountWorkspaceRoutes } from './workspace-routes';

export interface RouteDeps {
  /** what the use cases get */
  deps: AccountDeps;
  tokens: SessionTokens;
  /** Secure cookies when the app is served over https */
  secureCookies: boolean;
}

/**
 * The language of a mail this request triggers, given the account's own (null for a new account or one stored
 * without): see chooseLocale. `page`: the page's language, which a registration sends.
 */
const localeOf = (req: Request, page?: string) => (account: string | null) =>
  chooseLocale({ account, page, browser: req.acceptsLanguages() });

export function createRoutes({ deps, tokens, secureCookies }: RouteDeps): Router {
  const router = Router();

  /**
   * The caller, allowed `action` (their route's), and their session must still be in the store. The account's own
   * calls are `personal` (profile, password, sessions: `userId` is the person's, whichever workspace they act in).
   */
  const session = async (req: Request, action: Action): Promise<Actor> => {
    const actor = requireActor(req, action);
    if (!(await isSessionAlive(deps, actor.userId, actor.sessionId))) throw new AppError('UNAUTHORIZED');
    return actor;
  };
  const noStore = (res: Response) => res.set('Cache-Control', 'no-store');
  const knownBrowserOf = (req: Request) => cookieValue(req.get('cookie'), KNOWN_BROWSER_COOKIE);

  // --- public auth calls
  router.post('/api/auth/register', async (req, res) => {
    const input = parseWith(RegisterRequest, req.body);
    res.json(await register(deps, input, localeOf(req, input.locale)));
  });

  router.post('/api/auth/verify-email', async (req, res) => {
    const { token } = parseWith(VerifyEmailRequest, req.body);
    res.json(await verifyEmail(deps, token));
  });

  router.post('/api/auth/resend-verification', (req, res) => {
    const { email } = parseWith(ResendVerificationRequest, req.body);
    res.json(resendVerification(deps, email, localeOf(req)));
  });

  router.post('/api/auth/request-password-reset', (req, res) => {
    const { email } = parseWith(RequestPasswordResetRequest, req.body);
    res.json(requestPasswordReset(deps, email, localeOf(req)));
  });

  router.post('/api/auth/reset-password', async (req, res) => {
    const input = parseWith(ResetPasswordRequest, req.body);
    const { knownBrowser, ...answer } = await resetPassword(deps, input.token, input.newPassword, {
      ip: req.clientAddress ?? null,
      knownBrowser: knownBrowserOf(req),
    });
    res.append('Set-Cookie', knownBrowserCookie(knownBrowser, secureCookies));
    res.json(answer);
  });

  router.post('/api/auth/local-login', async (req, res) => {
    const input = parseWith(LocalLoginRequest, req.body);
    noStore(res);
    try {
      const {
        session: s,
        isFirstLogin,
        knownBrowser,
      } = await login(deps, input, {
        userAgent: req.get('user-agent')?.slice(0, 512) ?? null,
        ip: req.clientAddress ?? null,
        knownBrowser: knownBrowserOf(req),
      });
      res.append('Set-Cookie', sessionCookie(s.token, s.maxAgeSeconds, secureCookies));
      res.append('Set-Cookie', knownBrowserCookie(knownBrowser, secureCookies));
      res.json({ isFirstLogin });
    } catch (err) {
      if (err instanceof EmailNotVerified) {
        // The spec's client reads requiresVerification, message and email from this 403.
        res.status(403).json({ code: err.code, message: err.message, requiresVerification: true, email: err.email });
        return;
      }
      if (err instanceof AppError && err.code === 'RATE_LIMITED') {
        res.set('Retry-After', String(err.details?.retryAfterSeconds ?? 60));
      }
      throw err;
    }
  });

  // --- navigations
  router.get('/api/login', (_req, res) => {
    res.redirect(302, '/login');
  });

  router.get('/api/logout', async (req, res) => {
    // signed in: the policy first, as on every member route (anonymous: only the cookie is cleared)
    if (req.identity) {
      const me = requireActor(req, 'personal');
      await logout(deps, me.userId, me.sessionId);
    }
    noStore(res);
    res.append('Set-Cookie', clearSessionCookie(secureCookies));
    res.redirect(302, '/');
  });

  // --- signed-in calls
  router.get('/api/auth/user', async (req, res) => {
    const { userId } = await session(req, 'personal');
    noStore(res);
    res.json(await getCurrentUser(deps, userId));
  });

  router.post('/api/auth/mark-welcome-seen', async (req, res) => {
    const { userId } = await session(req, 'personal');
    parseWith(EmptyBody, req.body);
    res.json(await markWelcomeSeen(deps, userId));
  });

  router.post('/api/auth/migrate-account', async (req, res) => {
    const { userId } = await session(req, 'personal');
    const input = parseWith(MigrateAccountRequest, req.body);
    res.json(await migrateAccount(deps, userId, input));
  });

  router.put('/api/user/profile', async (req, res) => {
    const { userId } = await session(req, 'personal');
    const input = parseWith(UpdateProfileRequest, req.body);
    res.json(await updateProfile(deps, userId, input));
  });

  router.put('/api/user/password', async (req, res) => {
    const { userId, sessionId } = await session(req, 'personal');
    const input = parseWith(ChangePasswordRequest, req.body);
    res.json(await changePassword(deps, userId, sessionId, input));
  });

  // --- open to visitors and members
  router.post('/api/contact', async (req, res) => {
    // signed in: the policy first, as on every member route (a refused caller's message is not sent)
    const from = req.identity ? requireActor(req, 'personal').userId : null;
    const input = parseWith(ContactRequest, req.body);
    res.json(await sendContactMessage(deps, input, from));
  });

  // --- workspaces, members and invitations (workspace-routes.ts)
  mountWorkspaceRoutes(router, { deps, session, localeOf: (req) => localeOf(req) });

  // --- for the gateway
  router.get('/.well-known/jwks.json', async (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300');
    res.json(await tokens.jwks());
  });

  router.post('/internal/sessions/refresh', async (req, res) => {
    // the gateway refreshes the caller's own session: the person's, whatever workspace they act in
    const identity = requireActor(req, 'personal');
    const { sid } = parseWith(SessionRefreshRequest, req.body);
    if (identity.sessionId !== sid) throw new AppError('UNAUTHORIZED');
    const answer = await refreshSession(deps, identity.userId, sid);
    if (!answer) throw new AppError('UNAUTHORIZED');
    noStore(res);
    res.json(answer);
  });

  return router;
}
