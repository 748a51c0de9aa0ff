// The route table of spec point 2: one set of routes when signed in, another when not; /signage/:fileId always.
import { Spinner, useAuth } from '@pagecast/ui';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { AppFrame, PublicFrame } from '../components/app-frame';
import { DashboardPage } from '../features/dashboard/components/dashboard-page';
import { LandingPage } from '../features/landing/landing-page';
import { NotFoundPage } from '../features/not-found/not-found-page';
import { RemoteRoute } from '../federation/remote-route';

// The account screens bring zod and react-hook-form: their own chunks, out of the first download.
const LoginPage = lazy(() => import('../features/auth/components/login-page').then((m) => ({ default: m.LoginPage })));
const RegisterPage = lazy(() =>
  import('../features/auth/components/register-page').then((m) => ({ default: m.RegisterPage })),
);
const RequestPasswordResetPage = lazy(() =>
  import('../features/auth/components/request-password-reset-page').then((m) => ({
    default: m.RequestPasswordResetPage,
  })),
);
const ResetPasswordPage = lazy(() =>
  import('../features/auth/components/reset-password-page').then((m) => ({ default: m.ResetPasswordPage })),
);
const VerifyEmailPage = lazy(() =>
  import('../features/auth/components/verify-email-page').then((m) => ({ default: m.VerifyEmailPage })),
);
// The points page brings the card form (Stripe's React bindings): not part of a visitor's first download.
const PointsPage = lazy(() => import('../features/points/points-page').then((m) => ({ default: m.PointsPage })));
const LegalPage = lazy(() => import('../features/auth/components/legal-page').then((m) => ({ default: m.LegalPage })));
const WelcomePage = lazy(() =>
  import('../features/welcome/components/welcome-page').then((m) => ({ default: m.WelcomePage })),
);
const SettingsPage = lazy(() =>
  import('../features/settings/components/settings-page').then((m) => ({ default: m.SettingsPage })),
);
const MigrateAccountPage = lazy(() =>
  import('../features/migrate-account/components/migrate-account-page').then((m) => ({
    default: m.MigrateAccountPage,
  })),
);
const ContactPage = lazy(() =>
  import('../features/contact/components/contact-page').then((m) => ({ default: m.ContactPage })),
);

function PageLoading() {
  const { t } = useTranslation();
  return <Spinner label={t('common.loading')} />;
}

const lazyPage = (page: ReactNode) => <Suspense fallback={<PageLoading />}>{page}</Suspense>;

const files = <RemoteRoute remote="mf_files" component="FilesPage" />;
const marketplace = <RemoteRoute remote="mf_marketplace" component="MarketplacePage" />;
const playlists = <RemoteRoute remote="mf_player" component="PlaylistsPage" />;

function signedInRoutes() {
  return (
    <Route element={<AppFrame />}>
      <Route index element={<DashboardPage />} />
      <Route path="/files" element={files} />
      <Route path="/playbook" element={playlists} />
      <Route path="/playback" element={playlists} />
      <Route path="/screens" element={<RemoteRoute remote="mf_player" component="ScreensPage" />} />
      <Route path="/marketplace" element={marketplace} />
      <Route path="/points" element={lazyPage(<PointsPage />)} />
      <Route path="/settings" element={lazyPage(<SettingsPage />)} />
      <Route path="/welcome" element={lazyPage(<WelcomePage />)} />
      <Route path="/migrate-account" element={lazyPage(<MigrateAccountPage />)} />
      <Route path="/contact" element={lazyPage(<ContactPage />)} />
      <Route path="/login" element={lazyPage(<LoginPage />)} />
      <Route path="/verify-email" element={lazyPage(<VerifyEmailPage />)} />
      <Route path="/terms" element={lazyPage(<LegalPage kind="terms" />)} />
      <Route path="/privacy" element={lazyPage(<LegalPage kind="privacy" />)} />
      <Route path="*" element={<NotFoundPage />} />
    </Route>
  );
}

function signedOutRoutes() {
  return (
    <>
      <Route index element={<LandingPage />} />
      <Route element={<PublicFrame />}>
        <Route path="/login" element={lazyPage(<LoginPage />)} />
        <Route path="/register" element={lazyPage(<RegisterPage />)} />
        <Route path="/request-password-reset" element={lazyPage(<RequestPasswordResetPage />)} />
        <Route path="/reset-password" element={lazyPage(<ResetPasswordPage />)} />
        <Route path="/verify-email" element={lazyPage(<VerifyEmailPage />)} />
        <Route path="/contact" element={lazyPage(<ContactPage />)} />
        <Route path="/terms" element={lazyPage(<LegalPage kind="terms" />)} />
        <Route path="/privacy" element={lazyPage(<LegalPage kind="privacy" />)} />
        {/* Pages of the signed-in table that send a visitor to /login themselves (remembered path, toast, 500 ms);
            the remotes are still loaded so that they do it in their own route component. */}
        <Route path="/files" element={files} />
        <Route path="/marketplace" element={marketplace} />
        <Route path="/playbook" element={playlists} />
        <Route path="/playback" element={playlists} />
        <Route path="/screens" element={<RemoteRoute remote="mf_player" component="ScreensPage" />} />
        <Route path="/points" element={lazyPage(<PointsPage />)} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </>
  );
}

export function AppRoutes() {
  const { user, isLoading } = useAuth();
  return (
    <Routes>
      <Route path="/signage/:fileId" element={<RemoteRoute remote="mf_player" component="SignagePage" />} />
      {/* a display pairs and plays without a member login (issue 12) */}
      <Route path="/screen" element={<RemoteRoute remote="mf_player" component="DisplayPage" />} />
      {isLoading ? <Route path="*" element={<PageLoading />} /> : user ? signedInRoutes() : signedOutRoutes()}
    </Routes>
  );
}
