// The route table of spec point 2: one set of routes when signed in, another when not; /signage/:fileId always.
import { PlayerFrame, Spinner, useAuth } from '@pagecast/ui';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { Route, Routes } from '@pagecast/router';
import { AppFrame, PublicFrame } from './app-frame';
import { DashboardPage } from '../features/dashboard/components/dashboard-page';
import { LandingPage } from '../features/landing/landing-page';
import { NotFoundPage } from '../features/not-found/not-found-page';
import { RemoteRoute } from '../federation/remote-route';
import { pageLoaders } from './pages';

// Each page below is its own chunk (pages.ts says why, and starts the one the visitor opened early).
const LoginPage = lazy(() => pageLoaders.login().then((m) => ({ default: m.LoginPage })));
const RegisterPage = lazy(() => pageLoaders.register().then((m) => ({ default: m.RegisterPage })));
const RequestPasswordResetPage = lazy(() =>
  pageLoaders.requestPasswordReset().then((m) => ({ default: m.RequestPasswordResetPage })),
);
const ResetPasswordPage = lazy(() => pageLoaders.resetPassword().then((m) => ({ default: m.ResetPasswordPage })));
const VerifyEmailPage = lazy(() => pageLoaders.verifyEmail().then((m) => ({ default: m.VerifyEmailPage })));
const PointsPage = lazy(() => pageLoaders.points().then((m) => ({ default: m.PointsPage })));
const LegalPage = lazy(() => pageLoaders.legal().then((m) => ({ default: m.LegalPage })));
const WelcomePage = lazy(() => pageLoaders.welcome().then((m) => ({ default: m.WelcomePage })));
const SettingsPage = lazy(() => pageLoaders.settings().then((m) => ({ default: m.SettingsPage })));
const MigrateAccountPage = lazy(() => pageLoaders.migrateAccount().then((m) => ({ default: m.MigrateAccountPage })));
const MembersPage = lazy(() => pageLoaders.members().then((m) => ({ default: m.MembersPage })));
const AuditPage = lazy(() => pageLoaders.audit().then((m) => ({ default: m.AuditPage })));
const InvitationPage = lazy(() => pageLoaders.invitation().then((m) => ({ default: m.InvitationPage })));
const ContactPage = lazy(() => pageLoaders.contact().then((m) => ({ default: m.ContactPage })));

function PageLoading() {
  const { t } = useTranslation();
  return <Spinner label={t('common.loading')} />;
}

/** A signage page's loading frame in the visitor's language: the page came with it (prerendered), and it stays. */
export function SignageLoading() {
  const { t } = useTranslation();
  return <PlayerFrame label={t('player.loading')} hint={t('player.escHint')} />;
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
      <Route path="/screens/fleet" element={<RemoteRoute remote="mf_player" component="FleetPage" />} />
      <Route path="/screens/health" element={<RemoteRoute remote="mf_player" component="FleetHealthPage" />} />
      <Route path="/screens/proposals" element={<RemoteRoute remote="mf_player" component="ProposalsPage" />} />
      <Route
        path="/screens/proposals/:proposalId"
        element={<RemoteRoute remote="mf_player" component="ProposalPage" />}
      />
      <Route path="/marketplace" element={marketplace} />
      <Route path="/points" element={lazyPage(<PointsPage />)} />
      <Route path="/settings" element={lazyPage(<SettingsPage />)} />
      <Route path="/welcome" element={lazyPage(<WelcomePage />)} />
      <Route path="/migrate-account" element={lazyPage(<MigrateAccountPage />)} />
      <Route path="/contact" element={lazyPage(<ContactPage />)} />
      <Route path="/workspace/members" element={lazyPage(<MembersPage />)} />
      <Route path="/workspace/audit" element={lazyPage(<AuditPage />)} />
      <Route path="/invitations/:token" element={lazyPage(<InvitationPage />)} />
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
        <Route path="/invitations/:token" element={lazyPage(<InvitationPage />)} />
        {/* Pages of the signed-in table that send a visitor to /login themselves (remembered path, toast, 500 ms);
            the remotes are still loaded so that they do it in their own route component. */}
        <Route path="/files" element={files} />
        <Route path="/marketplace" element={marketplace} />
        <Route path="/playbook" element={playlists} />
        <Route path="/playback" element={playlists} />
        <Route path="/screens" element={<RemoteRoute remote="mf_player" component="ScreensPage" />} />
        <Route path="/screens/fleet" element={<RemoteRoute remote="mf_player" component="FleetPage" />} />
        <Route path="/screens/health" element={<RemoteRoute remote="mf_player" component="FleetHealthPage" />} />
        <Route path="/screens/proposals" element={<RemoteRoute remote="mf_player" component="ProposalsPage" />} />
        <Route
          path="/screens/proposals/:proposalId"
          element={<RemoteRoute remote="mf_player" component="ProposalPage" />}
        />
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
      <Route
        path="/signage/:fileId"
        element={<RemoteRoute remote="mf_player" component="SignagePage" fallback={<SignageLoading />} />}
      />
      {/* a display pairs and plays without a member login */}
      <Route path="/screen" element={<RemoteRoute remote="mf_player" component="DisplayPage" />} />
      {isLoading ? <Route path="*" element={<PageLoading />} /> : user ? signedInRoutes() : signedOutRoutes()}
    </Routes>
  );
}
